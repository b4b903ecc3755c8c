/*
 * waits.c - entry points for condition variables, semaphores and wakers:
 * a wait releases and re-takes a lock, a post or signal wakes a waiter.
 */
#include "entry.h"

#include "model/chain.h"
#include "base/config.h"
#include "model/forkset.h"
#include "base/output.h"
#include "report/report.h"
#include "model/stack.h"
#include "model/stackmemo.h"
#include "model/tomb.h"
#include "rules/wait.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- condition variables -------------------------------------------- */

/*
 * pthread_cond_wait releases the mutex and re-acquires it before returning:
 * the re-acquisition happens with whatever else the thread holds, so it is
 * validated (before blocking) like any acquisition.
 */
/* Run a check under graph_lock unless this exact context was checked before.
 * `extra` folds in what the check reads beyond the held chain (0: nothing).
 * 1: the verdict is in the chain cache (found there or put there now). */
static int check_once(struct uld_thread *t, struct uld_lock *w, unsigned mode, uintptr_t ip,
                       int (*check)(struct uld_thread *, struct uld_lock *, uintptr_t),
                       int cacheable, uint64_t extra)
{
    uint64_t key = uld_chain_mix(uld_held_top_key(t), w->id, mode) ^ t->sigctx ^ extra;
    if (cacheable && uld_chain_contains(key))
        return 1;
    int saved = errno, cached = 0;
    uld_mutex_lock(&uld_graph_lock);
    uld_stack_anchor_set(t, (uintptr_t)__builtin_frame_address(0));
    if (atomic_load(&w->addr)) {
        cached = check(t, w, ip) && cacheable;
        if (cached)
            uld_chain_insert(key);
    }
    uld_stack_anchor_clear(t);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return cached;
}

/* A first wait holding locks by a thread new to w: the checks must see it. */
static int wait_cacheable(const struct uld_thread *t, const struct uld_lock *w)
{
    return t->depth == 0 || !uld_waitobj_new_thread(w, t->serial, 0);
}

/*
 * A wait by the only thread that ever woke w searches no cycle
 * (uld_check_wait): its key differs, so the first such wait after another
 * thread woke w misses the cache and searches.  The sole waker only ever
 * goes from one thread to many, so a key cached as self-woken is never
 * wrong later for anyone.
 */
static uint64_t wait_key_extra(const struct uld_thread *t, const struct uld_lock *w)
{
    int self = w->wait && atomic_load_explicit(&w->wait->waker, memory_order_relaxed) == t->serial;
    return self ? 0x53454c465f574f4bull /* "SELF_WOK" */ : 0;
}

static void report_cond_mismatch(struct uld_thread *t, struct uld_lock *cond,
                                 uintptr_t mutex, const char *what, uintptr_t ip)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    uld_check_cond_mismatch(t, cond, mutex, what, ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
}

/* Waiters of one condvar must all use one mutex (POSIX leaves anything else undefined). */
static void count_waiter(struct uld_thread *t, struct uld_lock *cond, uintptr_t mutex,
                         uintptr_t ip)
{
    struct uld_waitobj *wo = cond->wait;
    if (!wo)
        return;
    uintptr_t bound = atomic_load(&wo->bound_mutex);
    if (atomic_fetch_add(&wo->waiters, 1) > 0 && bound && bound != mutex)
        report_cond_mismatch(t, cond, mutex,
                             "condition variable waited on with two different mutexes at once",
                             ip);
    atomic_store(&wo->bound_mutex, mutex);
}

/*
 * pthread_cond_wait releases the mutex, waits, and re-acquires the mutex:
 * the wait is checked with the locks held besides the mutex, and the
 * re-acquisition is validated (before blocking) like any acquisition.
 */
int uld_cond_wait_begin(struct uld_acq *a, const void *cond, const void *mutex,
                        struct uld_lockdesc d, int mutex_owner_tid, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return 0;
    uintptr_t addr = (uintptr_t)mutex;
    struct uld_lock *w = uld_object_get((uintptr_t)cond, (struct uld_lockdesc){.type = ULD_TYPE_COND, .flags = 0}, ip);
    int i = uld_held_find(t, addr);
    if (i < 0) {
        if (w && uld_owner_hint_of(mutex_owner_tid) != ULD_OWNER_SELF)
            report_cond_mismatch(t, w, addr,
                                 "waiting on a condition variable with a mutex this thread "
                                 "does not hold",
                                 ip);
        uld_leave();
        return 0;
    }
    struct uld_held h = t->held[i];
    uld_held_remove(t, i); /* released for the duration of the wait */
    if (w) {
        count_waiter(t, w, addr, ip);
        if (!t->disabled)
            check_once(t, w, ULD_MODE_WAIT, ip, uld_check_wait, wait_cacheable(t, w),
                       wait_key_extra(t, w));
    }
    uld_acquire_prepare(t, a, addr, d, h.mode & ULD_MODE_NOCHECK, h.subclass, ip);
    a->nest = h.nest;
    a->cond = w;
    a->cond_id = w ? w->id : 0;
    uld_leave();
    return 1;
}

void uld_cond_wait_end(struct uld_acq *a)
{
    /* the mutex is held again whatever the wait returned */
    uld_acquire_end(a, 1);
    struct uld_thread *t = a->thread;
    int i = uld_held_find(t, a->addr);
    if (i >= 0)
        t->held[i].nest = a->nest;
    struct uld_lock *w = a->cond;
    if (w && w->id == a->cond_id && w->wait)
        atomic_fetch_sub(&w->wait->waiters, 1);
}

/*
 * Semaphores as locks.  A semaphore initialised to 1 whose token a thread
 * took is held by that thread until it posts it: it goes on the held stack
 * (as a trylock: the wait before was checked as a wait), so the locks and
 * semaphores taken meanwhile depend on it, as for a mutex.  A post by a
 * thread that did not take the token makes it a signal for good; a stale
 * entry of the taker is dropped at its next wait on it.
 */
static const struct uld_lockdesc sem_lockdesc = {.type = ULD_TYPE_SEM, .flags = 0};

void uld_sem_created(const void *sem, unsigned value, uintptr_t ip)
{
    uld_lock_created(sem, sem_lockdesc, ip);
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (w && w->type == ULD_TYPE_SEM && w->wait)
        atomic_store(&w->wait->binary, value == 1);
}

/* A destroy of a semaphore that turned out to be a signal: the token this
 * thread took before that is no lock it holds (a Python lock handed to
 * another thread to release, then freed). */
void uld_sem_destroying(const void *sem)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (w && w->type == ULD_TYPE_SEM && !uld_sem_is_lock(w))
        uld_held_drop(t, (uintptr_t)sem);
    uld_leave();
}

/*
 * A wait or wake-up (mode) on w whose check is cached: with the same held
 * chain (which never holds a semaphore whose post this is: chain keys name
 * instances) the fast path (fastpath.h) skips the check.  For a wait, not
 * by the semaphore's only waker (that key changes when a second thread
 * posts); for a wake-up, not by a thread new to w (never cached), not
 * after this thread's own wait on it (its key has the locks taken since).
 */
static void wait_memo(struct uld_thread *t, struct uld_lock *w, uintptr_t addr, unsigned mode)
{
    uint64_t pk = uld_fast_key(uld_held_top_key(t), t->sigctx, mode);
    t->fast[uld_fast_slot(addr, pk)] = (struct uld_fast){
        .addr = addr, .prev_key = pk, .lock = w,
        .ids = {w->id, w->id, 0, (uint8_t)mode, 0, w->type}};
}

/*
 * A token pushed after a memoised wait, as the acquisition memoised it (its
 * own entry, mode TRY | WAITED): the wait's entry gets the push too, so the
 * fast path pushes it after the wait without a second probe.
 */
static void sem_token_memo(struct uld_thread *t, uintptr_t addr, uint64_t prev_key)
{
    uint64_t tk = uld_fast_key(prev_key, t->sigctx, ULD_MODE_TRY | ULD_MODE_WAITED);
    uint64_t wk = uld_fast_key(prev_key, t->sigctx, ULD_MODE_WAIT);
    const struct uld_fast *tok = &t->fast[uld_fast_slot(addr, tk)];
    struct uld_fast *f = &t->fast[uld_fast_slot(addr, wk)];
    if (tok->addr != addr || tok->prev_key != tk || f->addr != addr || f->prev_key != wk ||
        f->lock != tok->lock || f->lock_id != tok->lock_id)
        return;
    f->key = tok->key;
    f->ids = tok->ids;
    f->token = 1;
}

void uld_sem_wait_begin(const void *sem, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    uintptr_t addr = (uintptr_t)sem;
    struct uld_lock *w = uld_object_get(addr, sem_lockdesc, ip);
    if (uld_sem_is_lock(w) && uld_held_find(t, addr) >= 0) {
        /* we hold its token yet it has one to give: someone else posted it */
        atomic_store(&w->wait->binary, 0);
        uld_held_drop(t, addr);
    }
    if (w && !t->disabled) {
        int cacheable = wait_cacheable(t, w);
        uint64_t extra = wait_key_extra(t, w);
        if (check_once(t, w, ULD_MODE_WAIT, ip, uld_check_wait, cacheable, extra) &&
            !extra && w->type == ULD_TYPE_SEM && w->wait && w->id)
            wait_memo(t, w, addr, ULD_MODE_WAIT);
    }
    uld_leave();
}

void uld_sem_acquired(const void *sem, int waited, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (w && w->type == ULD_TYPE_SEM && w->wait && uld_held_find(t, (uintptr_t)sem) >= 0) {
        /* a token again while holding one: another thread posted it (Python's
         * Condition.wait when the notify comes before its second acquire) */
        atomic_store(&w->wait->binary, 0);
        uld_held_drop(t, (uintptr_t)sem);
    } else if (uld_sem_is_lock(w)) {
        struct uld_acq a;
        unsigned mode = ULD_MODE_TRY | (waited ? ULD_MODE_WAITED : 0);
        uld_acquire_prepare(t, &a, (uintptr_t)sem, sem_lockdesc, mode, 0, ip);
        uld_acquire_end(&a, 1);
        if (waited)
            sem_token_memo(t, (uintptr_t)sem, a.prev_key);
    }
    uld_sem_taken_since(t, (uintptr_t)sem);
    uld_leave();
}

struct wake_args {
    struct uld_thread *t;
    const void *obj;
    int type;
    uintptr_t ip;
};

/*
 * What a post after this thread's own wait on the same semaphore depends on
 * besides the held chain: the locks taken since the wait (check.c's
 * wake_context), in order, as recorded in sem_acq.  Never 0, so such a post
 * is never mistaken for a plain one with the same held chain.
 */
static uint64_t sem_since_key(const struct uld_thread *t)
{
    uint64_t k = 0x53454d5f53494e43ull; /* "SEM_SINC" */
    for (int i = 0; i < t->sem_nacq; i++)
        k = uld_chain_mix(uld_chain_mix(k, t->sem_acq[i].id, t->sem_acq[i].mode),
                          t->sem_acq[i].subclass, 0);
    return k;
}

static void wake(struct uld_thread *t, const void *obj, int type, uintptr_t ip)
{
    struct uld_lock *w = uld_object_get((uintptr_t)obj, (struct uld_lockdesc){.type = (uint8_t)type, .flags = 0}, ip);
    /* a post after this thread's own wait also depends on the locks taken
     * since (sem_since_key); a new waker changes the verdict: checked once */
    int after_wait = t->sem_addr == (uintptr_t)obj;
    int cacheable = !(w && uld_waitobj_new_thread(w, t->serial, 1));
    uint64_t extra = after_wait ? sem_since_key(t) : 0;
    if (w)
        uld_wait_note_waker(w, t->serial);
    if (t->depth)
        uld_wait_announced(t);
    if (w && !t->disabled &&
        check_once(t, w, ULD_MODE_WAKE, ip, uld_check_wake, cacheable, extra) && !extra &&
        w->wait && w->id && !t->in_signal)
        wait_memo(t, w, (uintptr_t)obj, ULD_MODE_WAKE);
    if (after_wait)
        t->sem_addr = 0; /* the post ends what the wait began (also when cached) */
}

/*
 * The post of a semaphore token this thread holds: the release of a lock,
 * not a wake-up.  What reaching it needs was recorded while it was held
 * (the order edges from it of every lock and wait taken meanwhile); a
 * wake-up dependency on the locks taken since would also count those taken
 * by trylock, which never wait (a waiter's token taken before its guard is
 * given back, as Python's Condition.wait does, made guard -> waiter).
 */
static void sem_released(struct uld_thread *t, const void *sem)
{
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (w)
        uld_wait_note_waker(w, t->serial);
    uld_held_drop(t, (uintptr_t)sem);
    if (t->sem_addr == (uintptr_t)sem)
        t->sem_addr = 0;
}

void uld_fast_announce(struct uld_thread *t)
{
    uld_enter_from_fast();
    uld_wait_announced(t);
    uld_leave();
}

static void wake_on_stack(void *arg)
{
    struct wake_args *x = arg;
    wake(x->t, x->obj, x->type, x->ip);
}

void uld_wake(const void *obj, int type, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (type == ULD_TYPE_SEM && uld_held_find(t, (uintptr_t)obj) >= 0) {
        sem_released(t, obj);
        uld_leave();
        return;
    }
    if (unlikely(t->in_signal)) { /* sem_post is async-signal-safe: as above */
        struct wake_args x = {t, obj, type, ip};
        uld_bigstack_run(wake_on_stack, &x);
    } else {
        wake(t, obj, type, ip);
    }
    if (type == ULD_TYPE_SEM) {
        struct uld_lock *w = uld_lock_lookup((uintptr_t)obj);
        if (uld_sem_is_lock(w))
            atomic_store(&w->wait->binary, 0); /* posted by a non-taker: a signal */
    }
    uld_leave();
}

/* ---- joins, barriers, timeouts (the checks are rules/wait.c's) ---------- */

/* Blocked from here until uld_block_end: for the watchdog and the kill-time
 * report; a wait object's wake count is remembered (rules/wait.h). */
void uld_block_begin(const void *lock, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    t->blocked_seq = uld_wait_seq(uld_lock_lookup((uintptr_t)lock));
    uld_block_publish(t, lock, ip);
    uld_leave();
}

void uld_block_end(void)
{
    struct uld_thread *t = uld_self;
    if (t && t != ULD_THREAD_DEAD)
        uld_blocked_clear(t);
}

void uld_join_begin(const void *thread_obj, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    if (t->depth > 0 && !t->disabled) {
        uld_mutex_lock(&uld_graph_lock);
        struct uld_lock *w = uld_lock_lookup((uintptr_t)thread_obj);
        if (w && w->type == ULD_TYPE_THREAD) {
            uld_wait_join_holding(t, w, ip);
            uld_check_wait_on_others(t, w, ip);
        }
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
    }
    errno = saved;
    uld_leave();
    uld_block_begin(thread_obj, ip);
}

void uld_join_end(const void *thread_obj, int joined)
{
    uld_block_end();
    if (!joined)
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *w = uld_lock_lookup((uintptr_t)thread_obj);
    if (w && w->type == ULD_TYPE_THREAD)
        uld_lock_forget(w); /* the thread is gone; its descriptor may be reused */
    uld_mutex_unlock(&uld_graph_lock);
    errno = saved;
    uld_leave();
}

/* A rule about obj, run under graph_lock unless checking is off for the
 * thread; what it finds is reported before returning to the program. */
static void run_rule(void (*rule)(struct uld_thread *, const void *, uintptr_t), const void *obj,
                     uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    if (!t->disabled) {
        uld_mutex_lock(&uld_graph_lock);
        rule(t, obj, ip);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
    }
    errno = saved;
    uld_leave();
}

void uld_barrier_wait_begin(const void *obj, uintptr_t ip)
{
    run_rule(uld_wait_barrier_arrive, obj, ip);
    uld_block_begin(obj, ip);
}

void uld_barrier_wait_end(const void *obj)
{
    (void)obj;
    uld_block_end();
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    uld_wait_barrier_passed(t);
    uld_leave();
}

void uld_wait_timed_out(const void *obj, uintptr_t ip)
{
    run_rule(uld_check_timeout, obj, ip);
}
