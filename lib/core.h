/*
 * core.h - what the entry points (core.c, acquire.c, lifetime.c, waits.c,
 * api.c) see of the layers below: the global state and guard, the rules,
 * lazy records, the graph file, and the guard every entry point takes.
 * Lower layers include the header of what they use, never this one.
 */
#ifndef ULD_CORE_H
#define ULD_CORE_H

#include "fastpath.h"
#include "hooks.h"
#include "model/lazy.h"
#include "model/lock.h"
#include "model/state.h"
#include "model/thread.h"
#include "report/dump.h"
#include "rules/rules.h"

/* Make the record of a recordless held entry (recordless.c): every entry
 * into the validator does first, so nothing inside sees one of its own. */
void uld_recordless_materialise(struct uld_thread *t) ULD_HIDDEN;

/* Enter the validator; NULL means "pass through". Pair with uld_leave(). */
static inline struct uld_thread *uld_enter(void)
{
    if (unlikely(atomic_load_explicit(&uld_state, memory_order_acquire) != ULD_STATE_READY) ||
        uld_busy)
        return NULL;
    uld_busy = 1;
    uld_fast_self = NULL; /* a signal handler arriving now must not take the fast path */
    struct uld_thread *t = uld_self;
    if (likely(t != NULL && t != ULD_THREAD_DEAD)) {
        if (unlikely(t->recordless))
            uld_recordless_materialise(t);
        return t;
    }
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
    if (unlikely(uld_self->recordless))
        uld_recordless_materialise(uld_self);
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
