/*
 * state.h - the validator's global state and the guard every entry point
 * uses: a thread that is already inside the validator (or inside a signal
 * handler that interrupted it) passes straight through.  Defined in
 * state.c; the entry points (lib/core.c) start it and tear it down.
 */
#ifndef ULD_STATE_H
#define ULD_STATE_H

#include "lock.h"
#include "thread.h"

#include <pthread.h>

/* graph_lock protects the graphs, classes, the lock map's writers and the
 * stack depot. */
extern struct uld_mutex uld_graph_lock ULD_HIDDEN;
extern _Atomic int uld_state ULD_HIDDEN; /* ULD_STATE_* */
extern _Atomic int uld_untracked_locks ULD_HIDDEN; /* a limit made some locks invisible */

enum { ULD_STATE_OFF, ULD_STATE_INITIALISING, ULD_STATE_READY, ULD_STATE_FAILED };

extern _Atomic int uld_signal_handlers ULD_HIDDEN; /* a handler was installed (signal.c) */
extern int uld_watchdog_on;
extern int uld_forked_child;

/* The key whose destructor ends a thread's state (set by uld_thread_attach). */
extern pthread_key_t uld_thread_key ULD_HIDDEN;
struct uld_thread *uld_thread_attach(void) ULD_HIDDEN;
void uld_signal_thread_init(struct uld_thread *t) ULD_HIDDEN; /* signal.c */
/* signal.c: fold t's handler and mask into its chain-key context (sigctx). */
void uld_sigctx_update(struct uld_thread *t) ULD_HIDDEN;
/* signal.c: back to the context handler frame `depth` interrupted (the
 * frames above it are gone too). */
void uld_sigframe_pop_to(struct uld_thread *t, int depth) ULD_HIDDEN;

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

/* Enter the validator from the fast path (uld_fast_self was this thread's:
 * ready, not inside); a signal handler from here on passes through.  Pair
 * with uld_leave(). */
static inline void uld_enter_from_fast(void)
{
    uld_busy = 1;
    uld_fast_self = NULL;
}

/*
 * Leave the validator, re-deciding whether this thread may use the fast path.
 * After a semaphore wait the slow path records the locks taken until the
 * post (sem_acq), which the post needs only if it is a wake-up: while the
 * token is on the held stack (a semaphore used as a lock, Python's locks)
 * the post is its release, and the fast path may run; so it may once
 * sem_acq is full (a consumer that never posts what it waits for).
 */
static inline void uld_leave(void)
{
    struct uld_thread *t = uld_self;
    int fast = t && t != ULD_THREAD_DEAD && !t->disabled && !t->nest_addr &&
               (!t->sem_addr || t->sem_nacq >= (int)ULD_ARRAY_SIZE(t->sem_acq) ||
                uld_held_find(t, t->sem_addr) >= 0) &&
               !uld_watchdog_on && !uld_forked_child;
    uld_fast_self = fast ? t : NULL;
    uld_busy = 0;
}

#endif
