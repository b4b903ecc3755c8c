/*
 * report.h - reports.  A report is built as a self-contained snapshot under
 * graph_lock (uld_report_new/submit), deduplicated there, and emitted later
 * (uld_report_flush) under the report lock, outside graph_lock, because
 * naming frames and locks may allocate.  Emission never blocks on another
 * thread's emission: a busy report lock means the holder will print ours.
 */
#ifndef ULD_REPORT_H
#define ULD_REPORT_H

#include "base/internal.h"

enum uld_report_kind {
    ULD_R_LOCK_ORDER,
    ULD_R_CLASS_ORDER,
    ULD_R_SELF_DEADLOCK,
    ULD_R_UNLOCK_NOT_HELD,
    ULD_R_UNLOCK_NOT_OWNER,
    ULD_R_DESTROY_HELD,
    ULD_R_EXIT_HOLDING,
    ULD_R_ASSERT_NOT_HELD,
    ULD_R_LIMIT,
    ULD_R_WAIT_FOR,
    ULD_R_COND_MISMATCH,
    ULD_R_SIGNAL_UNSAFE,
    ULD_R_FORK_HOLDING,
    ULD_R_DEADLOCK,
    ULD_R_INVALID_LOCK,
    ULD_R_TRYLOCK_HELD,
    ULD_R_HANG_WAIT,    /* watchdog: blocked on a lock whose holder waits (wait.c) */
    ULD_R_TIMEOUT,      /* a timed lock or wait expired inside a cycle (wait.c) */
    ULD_R_KILLED,       /* a fatal signal ended a process with blocked threads (killdump.c) */
    ULD_R_USE_AFTER_DESTROY, /* a destroyed lock used again (tomb.c) */
    ULD_R_KINDS
};

#define ULD_R_MAX_LOCKS ULD_MAX_CYCLE
#define ULD_NAME_MAX 1024 /* a lock or class name or key as printed: never cut short */
#define ULD_R_MAX_HELD 64

/* A lock as a report names it, copied so it outlives the lock. */
struct uld_rlock {
    uint32_t id, class_id;
    uintptr_t addr;
    uintptr_t site_ip;       /* init or first-use site */
    uintptr_t class_key;     /* static address or site of the class */
    uint32_t class_stack;    /* first-use classes: the frames defining the class */
    uint32_t ordinal;
    uint8_t type, flags, site_kind, class_kind, subclass, is_static;
    uint8_t context;         /* only held alongside: not one of the report's locks */
    char name[160];          /* uld_lock_set_name(), or empty */
    char class_name[160];    /* uld_lock_set_class(), or empty */
};

/* One dependency of a cycle: `to` acquired while `from` was held. */
struct uld_rstep {
    int from, to;            /* indexes into locks[] */
    uint8_t types;           /* ULD_DEP_* */
    uint8_t from_mode, to_mode; /* ULD_MODE_* of the recording shown */
    uint32_t stack_id;
    uintptr_t from_ip;
    int tid;
    uint32_t serial;
};

struct uld_rheld {
    int lock;                /* index into locks[] */
    uint8_t mode;            /* ULD_MODE_* */
    uintptr_t ip;
    uint32_t serial;         /* hang and kill reports: the thread holding it */
};

struct uld_report {
    struct uld_report *next;
    int kind;
    int tid;
    uint32_t serial;
    char thread_name[16];
    uint32_t stack_id;       /* the current stack (0: use ip) */
    uintptr_t ip;            /* the program's call site */
    int target;              /* lock being acquired/released/destroyed, or -1 */
    uint8_t target_mode;     /* ULD_MODE_* of the acquisition */
    int other_tid;           /* unlock-not-owner: the owner, if known */
    uintptr_t prior_ip;      /* use-after-destroy: the call that destroyed it (0 unknown) */
    int signo;               /* signal-unsafe-lock: the signal */
    int nlocks, nsteps, nheld;
    int held_split;          /* hang/kill reports: held[] up to here is steps[0]'s thread's */
    int nclasses;
    uint32_t classes[ULD_R_MAX_LOCKS];   /* class-order: class ids of the cycle */
    int class_lock[ULD_R_MAX_LOCKS];     /* class-order: a lock of each class */
    char detail[160];        /* kind-specific explanation */
    struct uld_rlock locks[ULD_R_MAX_LOCKS];
    struct uld_rstep steps[ULD_R_MAX_LOCKS];
    struct uld_rheld held[ULD_R_MAX_HELD];
};

/* graph_lock held: */
struct uld_report *uld_report_new(int kind) ULD_HIDDEN;
struct uld_lock;
struct uld_class;
int uld_report_add_lock(struct uld_report *r, struct uld_lock *l, unsigned subclass) ULD_HIDDEN;
int uld_report_add_class(struct uld_report *r, struct uld_class *cls) ULD_HIDDEN;
/* Queue r unless `dedup_key` was reported before; r is consumed. */
void uld_report_submit(struct uld_report *r, uint64_t dedup_key) ULD_HIDDEN;
int uld_report_seen(uint64_t dedup_key) ULD_HIDDEN;
void uld_report_mark_seen(uint64_t dedup_key) ULD_HIDDEN; /* a further key of one report */
/* Innermost frames of an edge's stack that make its site, for deduplication
 * and signatures: enough to see past a lock wrapper or two to the caller.
 * Frame i of a site: the two innermost exactly (the lock call and the call
 * of its wrapper), the outer ones by function, so a loop the compiler
 * unrolled or a caller's second call of the same path is the same site. */
#define ULD_R_SITE_FRAMES 4
uintptr_t uld_report_site_frame(const uintptr_t *frames, int i) ULD_HIDDEN;

/* No validator lock held: print everything queued. */
void uld_report_flush(void) ULD_HIDDEN;
/* At exit: the same, even inside a one-time initialiser (the last chance). */
void uld_report_flush_final(void) ULD_HIDDEN;
int uld_report_pending(void) ULD_HIDDEN; /* reports queued, not yet printed */

int uld_report_open_outputs(void) ULD_HIDDEN;
long uld_report_errors(void) ULD_HIDDEN;
long uld_report_warnings(void) ULD_HIDDEN;
void uld_report_lock_for_fork(int lock) ULD_HIDDEN; /* 1: take, 0: release */
void uld_report_after_fork_child(void) ULD_HIDDEN;
void uld_report_summary(void) ULD_HIDDEN; /* one line at exit */
const char *uld_report_kind_name(int kind) ULD_HIDDEN;
int uld_report_kind_is_error(int kind) ULD_HIDDEN;

/* naming.c: the frame that names an init class: its key, or a chain key's
 * outermost frame in the site's module. */
uintptr_t uld_init_class_site(uintptr_t key, uint32_t site_stack) ULD_HIDDEN;

/* report_text.c: the human layout; one line for verbosity=0 */
void uld_report_render_text(struct uld_buf *b, const struct uld_report *r) ULD_HIDDEN;
void uld_report_render_line(struct uld_buf *b, const struct uld_report *r) ULD_HIDDEN;

/* json.c: text and signature are added as fields (either may be NULL) */
void uld_json_emit(struct uld_buf *b, const struct uld_report *r, const char *text,
                   const char *signature) ULD_HIDDEN;

/* A hex id of the problem, stable across processes of the same binaries. */
void uld_report_signature(const struct uld_report *r, char *out, size_t n) ULD_HIDDEN;
/* naming.c: stable key of a class, the same in every process and build of the
 * same source (symbol, function@file:+line-in-function; module@0xOFF without
 * symbols), "/<subclass>" appended; docs/reports.md. */
void uld_class_stable_key(int kind, uintptr_t key, uint32_t site_stack, unsigned subclass,
                          char *out, size_t n) ULD_HIDDEN;
/* The frame that names a first-use class: the first one outside lock wrappers. */
uintptr_t uld_class_site_frame(uint32_t site_stack, uintptr_t fallback) ULD_HIDDEN;
struct uld_suppression;
int uld_report_suppressed(const struct uld_report *r, struct uld_suppression *list) ULD_HIDDEN;
long uld_report_suppressed_count(void) ULD_HIDDEN;
/* naming.c: names of locks and classes */
void uld_rlock_name(const struct uld_rlock *l, char *out, size_t n) ULD_HIDDEN;
void uld_rlock_class_name(const struct uld_rlock *l, char *out, size_t n) ULD_HIDDEN;
const char *uld_lock_type_name(int type) ULD_HIDDEN;
const char *uld_site_kind_name(int kind) ULD_HIDDEN;
const char *uld_report_message(const struct uld_report *r) ULD_HIDDEN;
int uld_report_threads(const struct uld_report *r, uint32_t *out, int max) ULD_HIDDEN;

#endif
