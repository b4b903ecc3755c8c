/*
 * core.h - the validator's global state and the guard every entry point
 * uses: a thread that is already inside the validator (or inside a signal
 * handler that interrupted it) passes straight through.
 */
#ifndef ULD_CORE_H
#define ULD_CORE_H

#include "model/lock.h"
#include "fastpath.h"
#include "model/thread.h"

extern struct uld_mutex uld_graph_lock ULD_HIDDEN;
extern _Atomic int uld_state ULD_HIDDEN; /* ULD_STATE_* */
extern _Atomic int uld_untracked_locks ULD_HIDDEN; /* a limit made some locks invisible */

/* Who holds a lock that the releasing thread does not hold. */
enum uld_owner_hint {
    ULD_OWNER_NONE,   /* nobody */
    ULD_OWNER_OTHER,  /* another thread */
    ULD_OWNER_SELF,   /* this thread, acquired where we could not see it */
    ULD_OWNER_UNKNOWN,
};

enum { ULD_STATE_OFF, ULD_STATE_INITIALISING, ULD_STATE_READY, ULD_STATE_FAILED };

extern _Atomic int uld_signal_handlers ULD_HIDDEN; /* a handler was installed */
extern struct uld_platform uld_platform ULD_HIDDEN;
void uld_watchdog_start(void) ULD_HIDDEN;
/* dump.c: the graph file, written as edges appear (see dump.c) */
void uld_graph_dump_open(void) ULD_HIDDEN;             /* at start-up */
int uld_graph_dump_due(void) ULD_HIDDEN;               /* edges changed since written */
void uld_graph_dump_write(int final) ULD_HIDDEN;       /* report_lock held */
void uld_graph_dump_after_fork_child(void) ULD_HIDDEN;
void uld_graph_dump(void) ULD_HIDDEN;                  /* at exit: the rest, then "end" */
/* procfile.c: each process's own report files, named in their first record */
void uld_procfile_header(int json, int fd) ULD_HIDDEN; /* output.c, at creation */
void uld_procfile_after_fork_child(void) ULD_HIDDEN;
void uld_stats_print(int fd) ULD_HIDDEN;       /* stats.c */

struct uld_thread *uld_thread_attach(void) ULD_HIDDEN;
void uld_signal_thread_init(struct uld_thread *t) ULD_HIDDEN;
void uld_check_signal_context(struct uld_thread *t, struct uld_lock *l, unsigned mode,
                              uintptr_t ip) ULD_HIDDEN;

extern int uld_watchdog_on;
extern int uld_forked_child;

/* Enter the validator; NULL means "pass through". Pair with uld_leave(). */
static inline struct uld_thread *uld_enter(void)
{
    if (unlikely(atomic_load_explicit(&uld_state, memory_order_acquire) != ULD_STATE_READY) ||
        uld_busy)
        return NULL;
    uld_busy = 1;
    uld_fast_self = NULL; /* a signal handler arriving now must not take the fast path */
    struct uld_thread *t = uld_self;
    if (likely(t != NULL && t != ULD_THREAD_DEAD))
        return t;
    t = t ? NULL : uld_thread_attach();
    if (!t)
        uld_busy = 0;
    return t;
}

/* Leave the validator, re-deciding whether this thread may use the fast path. */
static inline void uld_leave(void)
{
    struct uld_thread *t = uld_self;
    int fast = t && t != ULD_THREAD_DEAD && !t->disabled && !t->nest_addr && !t->sem_addr &&
               !uld_watchdog_on && !uld_forked_child;
    uld_fast_self = fast ? t : NULL;
    uld_busy = 0;
}

/* watchdog.c: t is about to block on lock (no validator entry of its own). */
void uld_block_publish(struct uld_thread *t, const void *lock, uintptr_t ip) ULD_HIDDEN;

/* check.c: the rules, called with graph_lock held. */
struct uld_report;
void uld_report_fill_thread(struct uld_report *r, struct uld_thread *t, uintptr_t ip) ULD_HIDDEN;
void uld_check_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                       unsigned mode, uintptr_t ip) ULD_HIDDEN;
/* A fresh lock's first acquisition: no dependency from the first born_under
 * held entries (held since the lock's init), see core.c. */
void uld_check_first_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                             unsigned mode, uintptr_t ip, int born_under) ULD_HIDDEN;
void uld_check_unlock_misuse(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                             enum uld_owner_hint owner, uintptr_t ip) ULD_HIDDEN;
void uld_check_exit_holding(struct uld_thread *t) ULD_HIDDEN;
void uld_check_exit_holding_signal(struct uld_thread *t, int sig) ULD_HIDDEN;
/* A trylock of a lock the thread holds failed (EBUSY); graph_lock held. */
void uld_check_trylock_held(struct uld_thread *t, struct uld_lock *l, uintptr_t ip) ULD_HIDDEN;
/* Re-initialisation of a held lock; destroy of a condvar threads wait on. */
void uld_check_reinit_held(struct uld_thread *t, struct uld_lock *l, int held_elsewhere,
                           uintptr_t ip) ULD_HIDDEN;
void uld_check_cond_destroy_waiters(struct uld_thread *t, struct uld_lock *cond, int waiters,
                                    uintptr_t ip) ULD_HIDDEN;
void uld_check_destroy_held(struct uld_thread *t, struct uld_lock *l, uintptr_t addr,
                            int held_elsewhere, int freed, uintptr_t ip) ULD_HIDDEN;
void uld_check_assert_held(struct uld_thread *t, uintptr_t addr, uintptr_t ip) ULD_HIDDEN;
void uld_check_fork_holding(struct uld_thread *t, uintptr_t addr, int owner_tid,
                            uintptr_t ip) ULD_HIDDEN;
/* 0: the outcome depends on the thread, do not cache it */
int uld_check_wait(struct uld_thread *t, struct uld_lock *w, uintptr_t ip) ULD_HIDDEN;
int uld_check_wake(struct uld_thread *t, struct uld_lock *w, uintptr_t ip) ULD_HIDDEN;
void uld_check_cond_mismatch(struct uld_thread *t, struct uld_lock *cond, uintptr_t mutex,
                             const char *what, uintptr_t ip) ULD_HIDDEN;
/* lazy.c: a lock initialised without a record until first used. */
int uld_lazy_init_quick(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
int uld_lazy_created(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                     uintptr_t ip) ULD_HIDDEN; /* 1: no record needed now */
/* Its record, made from the pending tag in the object (NULL if none).  graph_lock held. */
struct uld_lock *uld_lazy_record(uintptr_t addr, struct uld_lockdesc d) ULD_HIDDEN;
/* The same for an annotation by the initialising thread.  graph_lock held. */
struct uld_lock *uld_lazy_record_mine(struct uld_thread *t, uintptr_t addr) ULD_HIDDEN;
int uld_lazy_destroyed(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d) ULD_HIDDEN;
/* Destroyed (successfully) before it was ever recorded: 1 if nothing else to do.  Lock-free. */
int uld_lazy_destroy_unseen(uintptr_t addr, struct uld_lockdesc d) ULD_HIDDEN;
/* Does the object carry a pending tag (initialised, no record yet)?  Lock-free. */
int uld_lazy_pending(struct uld_lockdesc d) ULD_HIDDEN;
/* A lock seen for the first time (no init call). graph_lock held. */
struct uld_lock *uld_lock_first_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
/* Does this lock let readers in while a writer waits? */
static inline int uld_read_is_recursive(const struct uld_lock *l)
{
    if (l->type == ULD_TYPE_RWLOCK)
        return !(l->flags & ULD_LF_WRITER_PREF);
    return l->type == ULD_TYPE_CUSTOM && (l->flags & ULD_LF_READ_RECURSIVE);
}

#endif
