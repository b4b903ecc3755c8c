/*
 * report.c - report life cycle (snapshot, deduplication, queue, emission)
 * and the human-readable layout, modelled on the kernel's lockdep reports.
 *
 * Snapshots are made and deduplicated under graph_lock.  Emission takes
 * report_lock with a trylock: a thread that finds it busy leaves its report
 * on the pending stack and the holder prints it before letting go, so no
 * thread ever waits for another one's report (which might be waiting on a
 * lock this thread holds).  Output is written with write(2) from a buffer of
 * our own: no stdio, no locale.
 */
#include "symbolize.h"
#include "report.h"

#include "model/chain.h"
#include "dump.h"
#include "model/state.h"
#include "base/config.h"
#include "model/modules.h"
#include "model/graph.h"
#include "base/output.h"
#include "model/lock.h"
#include "model/stack.h"
#include "base/suppress.h"
#include "base/tablefull.h"
#include "model/thread.h"
#include "base/uthash_arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define EMIT_BUF_SIZE (4u << 20)
#define TEXT_BUF_SIZE (1u << 20) /* the human text; the JSON line gets the rest */

struct seen_key {
    uint64_t key;
    UT_hash_handle hh;
};

static struct uld_mutex report_lock;
static struct uld_report *_Atomic pending;
static struct seen_key *seen;
static _Atomic long nerrors, nwarnings, nsuppressed; /* as printed */
static struct uld_suppression *suppressions;
static char *emit_buf;
static _Atomic int summary_printed;

static const char *const kind_names[ULD_R_KINDS] = {
    [ULD_R_LOCK_ORDER] = "lock-order-inversion",
    [ULD_R_CLASS_ORDER] = "class-order-inversion",
    [ULD_R_SELF_DEADLOCK] = "self-deadlock",
    [ULD_R_UNLOCK_NOT_HELD] = "unlock-not-held",
    [ULD_R_UNLOCK_NOT_OWNER] = "unlock-not-owner",
    [ULD_R_DESTROY_HELD] = "destroy-held",
    [ULD_R_EXIT_HOLDING] = "exit-holding",
    [ULD_R_ASSERT_NOT_HELD] = "assert-not-held",
    [ULD_R_LIMIT] = "limit-reached",
    [ULD_R_WAIT_FOR] = "wait-for-cycle",
    [ULD_R_COND_MISMATCH] = "cond-mutex-mismatch",
    [ULD_R_SIGNAL_UNSAFE] = "signal-unsafe-lock",
    [ULD_R_FORK_HOLDING] = "fork-holding",
    [ULD_R_DEADLOCK] = "deadlock-detected",
    [ULD_R_INVALID_LOCK] = "invalid-lock",
    [ULD_R_TRYLOCK_HELD] = "trylock-held",
    [ULD_R_HANG_WAIT] = "hang-through-wait",
    [ULD_R_TIMEOUT] = "timeout-deadlock",
    [ULD_R_KILLED] = "blocked-at-kill",
    [ULD_R_USE_AFTER_DESTROY] = "use-after-destroy",
};

static const char *const headlines[ULD_R_KINDS] = {
    [ULD_R_LOCK_ORDER] = "possible circular locking dependency detected",
    [ULD_R_CLASS_ORDER] = "possible circular locking dependency between lock classes",
    [ULD_R_SELF_DEADLOCK] = "possible recursive locking detected",
    [ULD_R_UNLOCK_NOT_HELD] = "bad unlock balance detected",
    [ULD_R_UNLOCK_NOT_OWNER] = "lock released by a thread that does not own it",
    [ULD_R_DESTROY_HELD] = "held lock destroyed",
    [ULD_R_EXIT_HOLDING] = "thread exiting with locks held",
    [ULD_R_ASSERT_NOT_HELD] = "lock assertion failed: lock not held",
    [ULD_R_LIMIT] = "internal table full",
    [ULD_R_WAIT_FOR] = "possible deadlock: a wait that its waker cannot reach",
    [ULD_R_COND_MISMATCH] = "condition variable used with the wrong mutex",
    [ULD_R_SIGNAL_UNSAFE] = "lock taken both in a signal handler and where the signal can interrupt it",
    [ULD_R_FORK_HOLDING] = "lock held by another thread at fork() used in the child",
    [ULD_R_DEADLOCK] = "deadlock: threads blocked on each other",
    [ULD_R_INVALID_LOCK] = "unlock of memory that is not a known lock",
    [ULD_R_TRYLOCK_HELD] = "trylock of a lock this thread already holds",
    [ULD_R_HANG_WAIT] = "deadlock: a lock holder waits for what the blocked thread cannot give",
    [ULD_R_TIMEOUT] = "a timeout broke a deadlock",
    [ULD_R_KILLED] = "process killed while threads were blocked",
    [ULD_R_USE_AFTER_DESTROY] = "lock used after it was destroyed",
};

const char *uld_report_kind_name(int kind)
{
    return kind >= 0 && kind < ULD_R_KINDS ? kind_names[kind] : "unknown";
}

int uld_report_kind_is_error(int kind)
{
    return kind != ULD_R_CLASS_ORDER && kind != ULD_R_LIMIT && kind != ULD_R_TRYLOCK_HELD;
}

const char *uld_report_message(const struct uld_report *r)
{
    return headlines[r->kind];
}

long uld_report_errors(void)
{
    return atomic_load(&nerrors);
}

long uld_report_warnings(void)
{
    return atomic_load(&nwarnings);
}

/* ---- suppressions --------------------------------------------------------- */

static int is_kind_name(const char *kind)
{
    for (int i = 0; i < ULD_R_KINDS; i++)
        if (kind_names[i] && !strcmp(kind_names[i], kind))
            return 1;
    return !strcmp(kind, "cross-run-cycle") || !strcmp(kind, "cross-run-class-cycle");
}

static void suppression_error(const char *file, int line, const char *why)
{
    if (line)
        uld_warn("suppressions file '%s' line %d: %s; line ignored", file, line, why);
    else
        uld_warn("suppressions file '%s' %s; no suppressions", file, why);
}

long uld_report_suppressed_count(void)
{
    return atomic_load(&nsuppressed);
}

/* Strings a suppression pattern may match: names, and each frame's function/file/module. */
struct supp_strings {
    const char *s[1024];
    int n;
    char names[2 * ULD_R_MAX_LOCKS][ULD_NAME_MAX];
    int nnames;
};

static void add_info_strings(struct supp_strings *ss, const struct uld_frame_info *fi)
{
    if (ss->n + 4 > (int)ULD_ARRAY_SIZE(ss->s))
        return;
    ss->s[ss->n++] = fi->function;
    ss->s[ss->n++] = fi->file;
    ss->s[ss->n++] = fi->file && strrchr(fi->file, '/') ? strrchr(fi->file, '/') + 1 : NULL;
    ss->s[ss->n++] = fi->module;
}

/* A single position, as the JSON record has it: the real function. */
static void add_frame_strings(struct supp_strings *ss, uintptr_t addr)
{
    struct uld_frame_info fi;
    if (!addr)
        return;
    uld_symbolize(addr, 1, &fi);
    add_info_strings(ss, &fi);
}

/* A stack, as the JSON record has it: inlined bodies included. */
static void add_stack_strings(struct supp_strings *ss, uint32_t stack_id)
{
    const uintptr_t *frames;
    int n = uld_stack_frames(stack_id, &frames);
    for (int i = 0; i < n; i++) {
        struct uld_frame_info chain[ULD_MAX_INLINE];
        int len = uld_symbolize_inline(frames[i], 1, chain, ULD_MAX_INLINE);
        for (int k = 0; k < len; k++)
            add_info_strings(ss, &chain[k]);
    }
}

int uld_report_suppressed(const struct uld_report *r, struct uld_suppression *list)
{
    static struct supp_strings ss; /* report lock held */
    if (!list)
        return 0;
    ss.n = ss.nnames = 0;
    for (int i = 0; i < r->nlocks; i++) {
        uld_rlock_name(&r->locks[i], ss.names[ss.nnames], sizeof(ss.names[0]));
        ss.s[ss.n++] = ss.names[ss.nnames++];
        uld_rlock_class_name(&r->locks[i], ss.names[ss.nnames], sizeof(ss.names[0]));
        ss.s[ss.n++] = ss.names[ss.nnames++];
    }
    add_frame_strings(&ss, r->ip);
    add_stack_strings(&ss, r->stack_id);
    if (r->prior_ip)
        add_frame_strings(&ss, r->prior_ip);
    for (int i = 0; i < r->nsteps; i++) {
        add_frame_strings(&ss, r->steps[i].from_ip);
        add_stack_strings(&ss, r->steps[i].stack_id);
    }
    for (int i = 0; i < r->nheld; i++)
        add_frame_strings(&ss, r->held[i].ip);
    static char signature[48] = "signature:"; /* what --gen-suppressions writes */
    if (r->kind != ULD_R_LIMIT) {
        uld_report_signature(r, signature + 10, sizeof(signature) - 10);
        ss.s[ss.n++] = signature;
    }
    return uld_supp_match(list, kind_names[r->kind], ss.s, ss.n) != NULL;
}

/* ---- outputs ----------------------------------------------------------- */

static int open_output(enum uld_out which, const char *option, const char *path)
{
    char expanded[ULD_PATH_MAX + 32];
    uld_config_expand_path(path, expanded, sizeof(expanded));
    int rc = uld_output_open(which, expanded); /* the file is created at its first report */
    if (rc < 0)
        uld_output_open_failed(option, expanded, errno,
                               which == ULD_OUT_LOG ? "reports go to stderr" : "no JSON output");
    return rc;
}

int uld_report_open_outputs(void)
{
    if (uld_config.log_path[0])
        open_output(ULD_OUT_LOG, "log_path", uld_config.log_path);
    if (uld_config.json_path[0])
        open_output(ULD_OUT_JSON, "json_path", uld_config.json_path);
    if (uld_config.suppressions[0])
        suppressions = uld_supp_load(uld_config.suppressions, is_kind_name, suppression_error);
    return 1;
}

/* ---- snapshots (graph_lock held) --------------------------------------- */

struct uld_report *uld_report_new(int kind)
{
    struct uld_report *r = uld_alloc(sizeof(*r));
    if (r) {
        r->kind = kind;
        r->target = -1;
    }
    return r;
}

static void copy_name(char *dst, size_t n, const char *src)
{
    if (src)
        uld_snprintf(dst, n, "%s", src);
}

int uld_report_add_lock(struct uld_report *r, struct uld_lock *l, unsigned subclass)
{
    for (int i = 0; i < r->nlocks; i++)
        if (r->locks[i].id == l->id && r->locks[i].subclass == subclass)
            return i;
    if (r->nlocks >= ULD_R_MAX_LOCKS)
        return -1;
    struct uld_class *cls = uld_lock_class(l, subclass);
    struct uld_rlock *rl = &r->locks[r->nlocks];
    rl->id = l->id;
    rl->class_id = cls->node.id;
    rl->addr = atomic_load(&l->addr);
    rl->site_ip = l->site_ip;
    if (uld_addr_is_unloaded(cls->k.key) && uld_addr_real(cls->k.key) == l->site_ip)
        rl->site_ip = cls->k.key; /* an init site in a module unloaded since */
    rl->class_key = cls->k.key;
    rl->class_kind = (uint8_t)cls->k.kind;
    rl->class_stack = cls->base->site_stack;
    rl->ordinal = l->ordinal;
    rl->type = l->type;
    rl->flags = l->flags;
    rl->site_kind = l->site_kind;
    rl->subclass = (uint8_t)subclass;
    rl->is_static = (uint8_t)uld_lock_is_static(l);
    copy_name(rl->name, sizeof(rl->name), l->name);
    copy_name(rl->class_name, sizeof(rl->class_name), cls->base->name);
    return r->nlocks++;
}

/* A class whose recorded lock is gone: named by the class alone. */
int uld_report_add_class(struct uld_report *r, struct uld_class *cls)
{
    for (int i = 0; i < r->nlocks; i++)
        if (r->locks[i].id == 0 && r->locks[i].class_id == cls->node.id)
            return i;
    if (r->nlocks >= ULD_R_MAX_LOCKS)
        return -1;
    struct uld_rlock *rl = &r->locks[r->nlocks];
    rl->class_id = cls->node.id;
    rl->class_key = cls->k.key;
    rl->class_kind = (uint8_t)cls->k.kind;
    rl->class_stack = cls->base->site_stack;
    rl->site_kind = (uint8_t)cls->k.kind;
    rl->site_ip = cls->k.kind == ULD_SITE_STATIC ? 0
                  : cls->k.kind == ULD_SITE_INIT ? uld_init_class_site(cls->k.key, rl->class_stack)
                                                 : cls->k.key;
    rl->type = cls->type;
    rl->subclass = (uint8_t)cls->k.subclass;
    copy_name(rl->class_name, sizeof(rl->class_name), cls->base->name);
    return r->nlocks++;
}

int uld_report_seen(uint64_t key)
{
    struct seen_key *s;
    HASH_FIND(hh, seen, &key, sizeof(key), s);
    return s != NULL;
}

void uld_report_mark_seen(uint64_t key)
{
    struct seen_key *s;
    if (uld_report_seen(key) || !(s = uld_alloc(sizeof(*s))))
        return;
    s->key = key;
    HASH_ADD(hh, seen, key, sizeof(s->key), s);
}

void uld_report_submit(struct uld_report *r, uint64_t key)
{
    uld_report_mark_seen(key);
    struct uld_report *head = atomic_load(&pending);
    do
        r->next = head;
    while (!atomic_compare_exchange_weak(&pending, &head, r));
}

/* A table announced full (base/tablefull.h): one warning per table. */
static void report_table_full(const struct uld_table_full *f)
{
    struct uld_report *r = uld_report_new(ULD_R_LIMIT);
    if (!r)
        return;
    uld_snprintf(r->detail, sizeof(r->detail),
                 "the %s table is full (%ld entries); new ones are not recorded%s%s", f->table,
                 f->limit, f->option ? ", raise " : "", f->option ? f->option : "");
    uld_report_submit(r, (uint64_t)(uintptr_t)f->table);
}

/* Out of line: flushes run after every slow path and must stay cheap. */
static __attribute__((noinline)) void queue_tables_full(void)
{
    struct uld_table_full full;
    while (uld_table_full_take(&full))
        report_table_full(&full);
}

static void emit_json(int fd, const struct uld_report *r, const char *text,
                      const char *signature)
{
    struct uld_buf b;
    uld_buf_init(&b, emit_buf + TEXT_BUF_SIZE, EMIT_BUF_SIZE - TEXT_BUF_SIZE, -1);
    uld_json_emit(&b, r, text, signature);
    uld_buf_putc(&b, '\n');
    if (b.len + 1 < b.cap) /* a truncated line would not parse: drop it */
        uld_output_write_fd(ULD_OUT_JSON, fd, b.data, b.len);
}

/* error_file (from `ulockdep run`): say that this process reported an
 * error, for a driver that ignores exit statuses.  Opened and closed here:
 * no descriptor is kept; never created (run creates it). */
static void mark_error_file(void)
{
    if (!uld_config.error_file[0])
        return;
    int fd = open(uld_config.error_file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NOCTTY |
                                              O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    char line[24];
    struct uld_buf b;
    uld_buf_init(&b, line, sizeof(line), -1);
    uld_buf_printf(&b, "%d\n", (int)getpid());
    uld_write_all(fd, b.data, b.len);
    close(fd);
}

/* With the reports in a file, stderr (a test's log) still gets one line each. */
static void stderr_line(const struct uld_report *r)
{
    if (uld_output_fd(ULD_OUT_LOG) == uld_output_fd(ULD_OUT_STDERR))
        return; /* the full report is there already */
    char line[512];
    struct uld_buf b;
    uld_buf_init(&b, line, sizeof(line), -1);
    uld_report_render_line(&b, r);
    uld_output_write(ULD_OUT_STDERR, b.data, b.len);
}

static void emit(const struct uld_report *r)
{
    if (uld_report_suppressed(r, suppressions)) {
        atomic_fetch_add(&nsuppressed, 1);
        return;
    }
    if (uld_report_kind_is_error(r->kind) && atomic_fetch_add(&nerrors, 1) == 0)
        mark_error_file();
    else if (!uld_report_kind_is_error(r->kind))
        atomic_fetch_add(&nwarnings, 1);
    struct uld_buf text;
    uld_buf_init(&text, emit_buf, TEXT_BUF_SIZE, -1);
    uld_report_render_text(&text, r);
    if (uld_config.verbosity == 0 && r->kind != ULD_R_LIMIT) {
        char line[512];
        struct uld_buf b;
        uld_buf_init(&b, line, sizeof(line), -1);
        uld_report_render_line(&b, r);
        uld_output_write(ULD_OUT_LOG, b.data, b.len);
    } else {
        uld_output_write(ULD_OUT_LOG, text.data, text.len);
    }
    if (uld_config.stderr_lines)
        stderr_line(r);
    int json_fd = uld_output_fd(ULD_OUT_JSON); /* checked once per report */
    if (json_fd >= 0) {
        char signature[24];
        uld_report_signature(r, signature, sizeof(signature));
        emit_json(json_fd, r, uld_buf_cstr(&text), signature);
    }
    if (uld_config.halt_on_error && uld_report_kind_is_error(r->kind)) {
        uld_warn("halt_on_error is set: aborting");
        uld_abort();
    }
}

/* ---- queue --------------------------------------------------------------- */

/* Is anything pending that will be followed by a hang (print it now)? */
static int pending_urgent(void)
{
    for (struct uld_report *r = atomic_load(&pending); r; r = r->next)
        if (r->kind == ULD_R_SELF_DEADLOCK || r->kind == ULD_R_KILLED)
            return 1;
    return 0;
}

/*
 * Naming frames and classes may make libdw's debuginfod client, which
 * starts libcurl, libssh2 and OpenSSL, each through its own pthread_once.
 * Inside a library's one-time initialiser (OpenSSL's, on the program's
 * first TLS call) that would wait for the initialiser this thread is
 * running.  There separate debug files come from the local build-id tree
 * only (libdw itself starts none of those libraries), and the graph dump,
 * whose names are keys, waits for the next flush outside.
 */
static int flushing_final;
/* how long the last flush waits for a report another thread is making */
#define FINAL_WAIT_MS 10000

static int in_one_time_init(void)
{
    struct uld_thread *t = uld_self;
    return t && t != ULD_THREAD_DEAD && t->depth && uld_held_once(t);
}

/* The report lock, to print the queue.  Any thread's flush leaves it to a
 * holder, which prints ours before it lets go; the last flush of the process
 * waits for a holder instead (bounded), or exit() would cut off a report that
 * another thread is printing (the first one loads the symboliser: slow). */
static int report_lock_take(void)
{
    if (uld_mutex_trylock(&report_lock))
        return 1;
    if (!flushing_final)
        return 0;
    if (uld_mutex_lock_bounded(&report_lock, FINAL_WAIT_MS))
        return 1;
    uld_warn("exit: another thread's report did not finish in %d s; not waiting for it",
             FINAL_WAIT_MS / 1000);
    return 0;
}

void uld_report_flush_final(void)
{
    flushing_final = 1;
    /* a report being made holds graph_lock, one being printed report_lock:
     * let them be queued and printed first */
    if (uld_mutex_lock_bounded(&uld_graph_lock, FINAL_WAIT_MS))
        uld_mutex_unlock(&uld_graph_lock);
    if (report_lock_take())
        uld_mutex_unlock(&report_lock);
    uld_report_flush();
}

static void flush_on_stack(void *unused)
{
    (void)unused;
    /* no graph dump from a handler: it names frames, and raw names are not keys */
    int in_init = in_one_time_init() && !flushing_final;
    int no_dump = uld_in_signal_handler() || atomic_load(&uld_symbolize_raw) || in_init;
    while (atomic_load(&pending) || (!no_dump && uld_graph_dump_due())) {
        if (!report_lock_take())
            return;
        if (!emit_buf)
            emit_buf = uld_map(EMIT_BUF_SIZE);
        int local_was = in_init ? uld_symbolize_local_only(1) : -1;
        struct uld_report *list = atomic_exchange(&pending, NULL), *fifo = NULL;
        while (list) { /* the pending stack is newest first */
            struct uld_report *next = list->next;
            list->next = fifo;
            fifo = list;
            list = next;
        }
        /* Only a thread about to hang prints from a signal handler; it
         * symbolises anyway (a malloc it interrupted could hang the report, but
         * the thread hangs regardless) so the report names its locks. */
        while (fifo) {
            struct uld_report *next = fifo->next;
            if (emit_buf)
                emit(fifo);
            uld_free(fifo, sizeof(*fifo));
            fifo = next;
        }
        if (local_was >= 0)
            uld_symbolize_local_only(local_was);
        if (!no_dump)
            uld_graph_dump_write(0);
        uld_mutex_unlock(&report_lock);
    }
}

/* Symbolisation (libdw) alone can need ~150 KiB of stack: on a big one. */
void uld_report_flush(void)
{
    if (!atomic_load(&pending) && !uld_graph_dump_due() && likely(!uld_table_full_pending()))
        return; /* no reports, no new edges, no full table */
    /* A signal handler must not symbolise (libdw allocates): unless the thread
     * is about to hang, leave the reports to the next flush outside a handler. */
    if (uld_in_signal_handler() && !pending_urgent())
        return;
    if (unlikely(uld_table_full_pending()))
        queue_tables_full();
    uld_bigstack_run(flush_on_stack, NULL);
}

int uld_report_pending(void)
{
    return atomic_load(&pending) != NULL || uld_table_full_pending();
}

void uld_report_lock_for_fork(int lock)
{
    if (lock)
        uld_mutex_lock(&report_lock);
    else
        uld_mutex_unlock(&report_lock);
}

/* The child's exit status speaks for the child: count its own reports only. */
void uld_report_after_fork_child(void)
{
    uld_mutex_reset(&report_lock);
    atomic_store(&summary_printed, 0);
    atomic_store(&nerrors, 0);
    atomic_store(&nwarnings, 0);
}

void uld_report_summary(void)
{
    long e = atomic_load(&nerrors), w = atomic_load(&nwarnings);
    if (!uld_config.summary || (e == 0 && w == 0) || atomic_exchange(&summary_printed, 1))
        return;
    char line[256];
    struct uld_buf b;
    uld_buf_init(&b, line, sizeof(line), -1);
    uld_buf_printf(&b, "ulockdep: SUMMARY: %ld error%s, %ld warning%s in pid %d", e,
                   e == 1 ? "" : "s", w, w == 1 ? "" : "s", (int)getpid());
    long s = atomic_load(&nsuppressed);
    if (s)
        uld_buf_printf(&b, " (%ld suppressed)", s);
    uld_buf_putc(&b, '\n');
    uld_output_write(ULD_OUT_LOG, b.data, b.len);
}
