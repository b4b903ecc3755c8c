/*
 * fastpath.h - the validator's fast path, inlined into the interposer's
 * wrappers.  An acquisition that this thread made before, with the same
 * locks held, in the same signal context, was validated then: it only has
 * to be pushed on the held stack (from the thread's memo), and a release of
 * the newest held lock only popped; a semaphore wait checked before is
 * only published as blocked.  No global lock, no allocation, no call.
 * Everything else (first sightings, nesting annotations, checking off,
 * watchdog, fork child, the locks taken after a semaphore wait, re-entry)
 * takes the full path in core.c.
 *
 * uld_fast_self is non-NULL only while the fast path may run for this
 * thread: core.c clears it on entry to the validator and recomputes it on
 * the way out.  A signal handler that interrupts a fast path runs its own
 * balanced pushes and pops, so the interrupted one resumes consistently.
 */
#ifndef ULD_FASTPATH_H
#define ULD_FASTPATH_H

#include "hooks.h"
#include "model/chain.h"
#include "model/lazy.h"
#include "model/thread.h"
#include "rules/wait.h"

#include <pthread.h>

/* The interposer passes its acquisition flags (hooks.h) as the mode. */
_Static_assert(ULD_AF_READ == ULD_MODE_READ && ULD_AF_TRY == ULD_MODE_TRY, "mode bits");

/* uld_fast_acquire's hits: pushed; pushed, and a blocking acquisition of
 * this lock never fails, so the caller need not look at the real call's
 * result (it may tail-call it). */
#define ULD_FAST_PUSHED 1
#define ULD_FAST_SURE 2
/* uld_fast_take_back's: pushed; once the real call took the lock, call
 * uld_fast_taken (a note that holds only for an acquisition made). */
#define ULD_FAST_NOTE_TAKEN 4

/* Push what memo entry f says on t's held stack above its newest entry top,
 * stack[depth] (depth below the limit; the caller has top at hand, which
 * saves recomputing it). */
static inline __attribute__((always_inline)) void
uld_fast_push(struct uld_thread *t, struct uld_held *top, int depth, const struct uld_fast *f,
              uintptr_t addr, uintptr_t ip)
{
    struct uld_held *h = top + 1; /* held[depth] */
    h->addr = addr;
    h->lock = f->lock;
    h->chain_key = f->key;
    h->ip = ip;
    h->ids = f->ids;
    t->depth = depth + 1;
    t->fast_hits++;
}

/* t's memo entry for lock `addr` taken in `mode` with the locks held now, if
 * it has one for this lifetime of the lock's record; its key in *pk. */
static inline __attribute__((always_inline)) const struct uld_fast *
uld_fast_find(struct uld_thread *t, uintptr_t addr, unsigned mode, uint64_t *pk)
{
    *pk = uld_fast_key(t->stack[t->depth].chain_key, t->sigctx, mode);
    const struct uld_fast *f = &t->fast[uld_fast_slot(addr, *pk)];
    if (f->addr != addr || f->prev_key != *pk || f->lock->id != f->lock_id)
        return NULL;
    return f;
}

/* For the wrappers' slow paths: a miss on the memo entry set aside
 * (thread.h) for this very acquisition is taken back (acquire.c), with
 * uld_fast_acquire's results or ULD_FAST_NOTE_TAKEN; any other miss
 * touches nothing. */
void uld_fast_taken(uintptr_t ip);
int uld_fast_take_back_entry(const void *lock, const uint64_t *tag, unsigned mode, uintptr_t ip);
static inline int uld_fast_take_back(const void *lock, const uint64_t *tag, unsigned mode,
                                     uintptr_t ip)
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)lock;
    if (!t || !t->fast_aside)
        return 0;
    uint64_t pk = uld_fast_key(t->stack[t->depth].chain_key, t->sigctx, mode);
    if (t->fast[uld_fast_slot(addr, pk)].addr != ~addr)
        return 0;
    return uld_fast_take_back_entry(lock, tag, mode, ip);
}

/*
 * Try the fast path for an acquisition in `mode` (ULD_MODE_*); 0: not
 * pushed, else ULD_FAST_PUSHED or ULD_FAST_SURE.  `tag` is where the object
 * keeps its identity tag when it has one (read only if the memo entry says
 * the lock is tagged), or NULL for objects that never have one.
 */
static inline __attribute__((always_inline)) int
uld_fast_acquire(const void *lock, const uint64_t *tag, unsigned mode, uintptr_t ip)
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)lock;
    if (!t)
        return 0;
    int depth = t->depth;
    struct uld_held *top = &t->stack[depth];
    uint64_t pk = uld_fast_key(top->chain_key, t->sigctx, mode);
    const struct uld_fast *f = &t->fast[uld_fast_slot(addr, pk)];
    /* uld_fast_find's tests, with the depth limit among them */
    if (f->addr != addr || f->prev_key != pk || depth >= ULD_MAX_HELD ||
        f->lock->id != f->lock_id)
        return 0;
    if (__builtin_expect(f->tag != 0, 1) &&
        (!tag || __atomic_load_n(tag, __ATOMIC_RELAXED) != f->tag))
        return 0;
    uld_fast_push(t, top, depth, f, addr, ip);
    return ULD_FAST_PUSHED + f->sure;
}

/* The entry a fast push made before the real call, or NULL: the newest (a
 * signal handler in between leaves the stack as it found it); its call site
 * confirms it. */
static inline struct uld_held *uld_fast_newest(struct uld_thread *t, uintptr_t ip)
{
    return t->depth && t->held[t->depth - 1].ip == ip ? &t->held[t->depth - 1] : NULL;
}

/* The real call failed after a fast push (trylock busy, timeout): undo it.
 * Returns the lock, or 0. */
static inline uintptr_t uld_fast_undo(uintptr_t ip)
{
    struct uld_thread *t = uld_self;
    if (!t || t == ULD_THREAD_DEAD || !uld_fast_newest(t, ip))
        return 0;
    return t->held[--t->depth].addr;
}

/* Release of the newest held lock, taken once; 1: popped. */
static inline __attribute__((always_inline)) int uld_fast_release(const void *lock)
{
    struct uld_thread *t = uld_fast_self;
    if (!t)
        return 0;
    int depth = t->depth;
    const struct uld_held *h = &t->stack[depth]; /* the sentinel matches no lock */
    if (h->addr != (uintptr_t)lock || h->nest)
        return 0;
    t->depth = depth - 1;
    return 1;
}

/*
 * Release of the lock just below the newest, not re-acquired (a bucket
 * lock let go before the entry lock taken under it): the newest entry
 * moves down with its chain key recomputed, as uld_held_remove does.  The
 * entries a signal handler reads or writes (the newest and above) stay
 * whole until the depth drops.  Out of line, in the wrappers' slow paths.
 */
static inline int uld_fast_release_below(const void *lock)
{
    struct uld_thread *t = uld_fast_self;
    if (!t || t->depth < 2)
        return 0;
    int depth = t->depth;
    struct uld_held *h = &t->stack[depth - 1], *top = &t->stack[depth];
    if (h->addr != (uintptr_t)lock || h->nest || top->addr == (uintptr_t)lock)
        return 0;
    struct uld_held moved = *top;
    moved.chain_key = uld_chain_mix(h[-1].chain_key, top->node_id, top->mode);
    *h = moved;
    t->depth = depth - 1;
    return 1;
}

/*
 * Semaphores.  A blocking wait whose check is memoised (waits.c's
 * wait_memo: an entry of mode ULD_MODE_WAIT) is published as blocked,
 * for the kill-time report, and goes straight to the real wait; after it,
 * uld_fast_sem_waited does what uld_sem_acquired would, from the same entry.
 */
struct uld_fast_wait {
    struct uld_thread *t;
    const struct uld_fast *f;
    uint64_t pk;
};

/* 1: a fast wait begins (fw filled), 0: the full path. */
static inline __attribute__((always_inline)) int
uld_fast_sem_wait_begin(struct uld_fast_wait *fw, const void *sem, uintptr_t ip)
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)sem;
    if (!t)
        return 0;
    uint64_t pk;
    const struct uld_fast *f = uld_fast_find(t, addr, ULD_MODE_WAIT, &pk);
    if (!f)
        return 0;
    t->blocked_seq = atomic_load_explicit(&f->lock->wait->wake_seq, memory_order_relaxed);
    uld_blocked_set(t, sem, ip);
    *fw = (struct uld_fast_wait){t, f, pk};
    return 1;
}

/*
 * The real wait returned r.  A token taken from a semaphore used as a lock
 * is pushed as the entry says (a trylock that waited); from any other one
 * the locks taken until the post matter (sem_acq), which only the full path
 * records.  1: done; 0: the caller hands over to the full path.
 */
static inline __attribute__((always_inline)) int
uld_fast_sem_waited(const struct uld_fast_wait *fw, const void *sem, int r, uintptr_t ip)
{
    struct uld_thread *t = fw->t;
    const struct uld_fast *f = fw->f;
    uintptr_t addr = (uintptr_t)sem;
    uld_blocked_clear(t);
    /* a signal handler may have taken the slot, or the fast path away, meanwhile */
    if (r != 0 || uld_fast_self != t || f->addr != addr || f->prev_key != fw->pk)
        return 0;
    if (atomic_load_explicit(&f->lock->wait->binary, memory_order_relaxed)) {
        int depth = t->depth;
        if (!f->token || depth >= ULD_MAX_HELD)
            return 0;
        uld_fast_push(t, &t->stack[depth], depth, f, addr, ip);
    } else {
        uld_fast_self = NULL; /* first: a signal handler from here on takes the full path */
    }
    uld_sem_taken_since(t, addr);
    return 1;
}

/*
 * After a sem_trywait that took a token: a semaphore used as a lock gets it
 * pushed from the memo entry its earlier tries left (mode TRY), as
 * uld_sem_acquired would (Python takes every threading.Lock so first).
 * 0: call uld_sem_acquired.
 */
static inline __attribute__((always_inline)) int uld_fast_sem_tried(const void *sem,
                                                                     uintptr_t ip)
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)sem;
    if (!t)
        return 0;
    int depth = t->depth;
    uint64_t pk;
    const struct uld_fast *f = uld_fast_find(t, addr, ULD_MODE_TRY, &pk);
    if (!f || depth >= ULD_MAX_HELD || f->type != ULD_TYPE_SEM ||
        !atomic_load_explicit(&f->lock->wait->binary, memory_order_relaxed))
        return 0;
    uld_fast_push(t, &t->stack[depth], depth, f, addr, ip);
    uld_sem_taken_since(t, addr);
    return 1;
}

/* The post of the token on top of the held stack: its release, as waits.c's
 * sem_released.  1: done, the caller posts. */
static inline __attribute__((always_inline)) int uld_fast_sem_post(const void *sem)
{
    struct uld_thread *t = uld_fast_self;
    if (!t)
        return 0;
    int depth = t->depth;
    const struct uld_held *h = &t->stack[depth]; /* the sentinel matches no semaphore */
    if (h->addr != (uintptr_t)sem || h->nest || h->lock->id != h->lock_id)
        return 0;
    uld_wait_note_waker(h->lock, t->serial);
    t->depth = depth - 1;
    if (t->sem_addr == (uintptr_t)sem)
        t->sem_addr = 0;
    return 1;
}

/* uld_fast_wake's announcement (rules/wait.h), inside the validator (waits.c). */
void uld_fast_announce(struct uld_thread *t);

/*
 * A wake-up (a condvar's signal or broadcast, a semaphore's post that is
 * no token's release) whose check is memoised (waits.c's wait_memo: an
 * entry of mode ULD_MODE_WAKE) is only noted on its wait object, and one
 * made holding locks announces, as waits.c's wake does.  Not after this
 * thread's own wait on the semaphore (the post's key has the locks taken
 * since), nor once the semaphore is used as a lock again (its post may be
 * a release).  1: done, the caller wakes.
 */
static inline __attribute__((always_inline)) int uld_fast_wake(const void *obj)
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)obj;
    if (!t || t->sem_addr == addr)
        return 0;
    uint64_t pk;
    const struct uld_fast *f = uld_fast_find(t, addr, ULD_MODE_WAKE, &pk);
    if (!f || atomic_load_explicit(&f->lock->wait->binary, memory_order_relaxed))
        return 0;
    uld_wait_note_waker(f->lock, t->serial);
    if (t->depth)
        uld_fast_announce(t);
    return 1;
}

/*
 * A short stretch of the fast path that changes the thread's notes beyond
 * the held stack: a signal handler arriving meanwhile passes through the
 * validator, as inside uld_enter.  Nothing in it changes what uld_leave
 * would decide, so resuming gives the thread its fast path back as it was.
 */
static inline void uld_fast_hold_off(void)
{
    uld_busy = 1;
    uld_fast_self = NULL;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void uld_fast_resume(struct uld_thread *t)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uld_fast_self = t;
    uld_busy = 0;
}

/* A plain mutex's first lock by a thread holding nothing (recordless.c),
 * its tag word at tag_word: 1: taken with trylock and pushed without a
 * record; 0: the slow path. */
int uld_recordless_lock(pthread_mutex_t *m, uint64_t *tag_word, uintptr_t ip,
                        int (*trylock)(pthread_mutex_t *));
void uld_recordless_destroyed(struct uld_thread *t, const void *lock);

/* Before the real init: the thread for uld_fast_init_end, or NULL: the full hooks. */
static inline __attribute__((always_inline)) struct uld_thread *uld_fast_init_begin(const void *lock)
{
    struct uld_thread *t = uld_fast_self;
    if (!t || t->depth || uld_busy || uld_lockmap_may_have_record((uintptr_t)lock))
        return NULL;
    return t;
}

/* After a successful real init: 1 if the lock is tagged pending, else the
 * caller must call uld_lock_created (no tag word, a site not cached yet). */
static inline __attribute__((always_inline)) int
uld_fast_init_end(struct uld_thread *t, const void *lock, uint64_t *tag, uintptr_t ip)
{
    if (!tag)
        return 0;
    uld_busy = 1;
    int done = uld_lazy_tag_pending(t, (uintptr_t)lock, tag, ip);
    uld_busy = 0;
    return done;
}

/* Before the real destroy: was the lock never recorded in this lifetime? */
static inline __attribute__((always_inline)) int uld_fast_destroy_unseen(const void *lock,
                                                                          const uint64_t *tag)
{
    return tag && uld_tag_is_pending(__atomic_load_n(tag, __ATOMIC_RELAXED)) &&
           !uld_lockmap_marked((uintptr_t)lock);
}

/* ... and it was destroyed: its lifetime leaves only its destroy's site in
 * the tag word (a need its recordless acquisition noted goes). */
static inline void uld_fast_destroyed_unseen(const void *lock, uint64_t *tag, uintptr_t ip)
{
    __atomic_store_n(tag, uld_tag_dead(ip), __ATOMIC_RELAXED);
    struct uld_thread *t = uld_fast_self;
    if (t && t->recordless_needs)
        uld_recordless_destroyed(t, lock);
}

#endif
