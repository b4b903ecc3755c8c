/*
 * wait.h - waits beyond condition variables and semaphores (wait.c): a
 * thread's end, barriers, and who woke a wait object.
 */
#ifndef ULD_WAIT_H
#define ULD_WAIT_H

#include "model/lock.h"
#include "model/thread.h"

/* A thread starts: its end becomes a wait object (no validator lock held). */
void uld_wait_thread_begins(struct uld_thread *t) ULD_HIDDEN;
/* ... and ends: its needs noted so far go into the graph (no validator lock held). */
void uld_wait_thread_ends(struct uld_thread *t) ULD_HIDDEN;
/* A blocking acquisition that missed the memo (uld_busy set, no lock held). */
void uld_wait_note_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                           unsigned mode, uintptr_t ip) ULD_HIDDEN;
/* ... and succeeded (for barriers: taken since the last pass). */
void uld_wait_note_taken(struct uld_lock *l, unsigned subclass, unsigned mode,
                         uintptr_t ip) ULD_HIDDEN;
/* t woke a condvar or semaphore holding locks (no validator lock held). */
void uld_wait_announced(struct uld_thread *t) ULD_HIDDEN;
/* A recordless entry's need (recordless.c); 0: noted by the slow path instead. */
int uld_wait_note_recordless(struct uld_thread *t, uintptr_t addr, uint64_t *tag_word,
                             uint64_t tag, uintptr_t ip) ULD_HIDDEN;
/* ... the lock at addr is destroyed, or recorded: its recordless needs go. */
void uld_wait_recordless_drop(struct uld_thread *t, uintptr_t addr) ULD_HIDDEN;
/* ... a waker not in wo->wakers[0]: kept if there is room (lock-free). */
void uld_wait_note_new_waker(struct uld_waitobj *wo, uint32_t serial) ULD_HIDDEN;
/* thread `serial` woke w (lock-free; inline for the fast path's post). */
static inline void uld_wait_note_waker(struct uld_lock *w, uint32_t serial)
{
    struct uld_waitobj *wo = w->wait;
    if (!wo)
        return;
    /* not an atomic add: concurrent wakers may lose a step, but the value
     * still moves away from what a waiter saw, which is all it is read for */
    atomic_store_explicit(&wo->wake_seq,
                          atomic_load_explicit(&wo->wake_seq, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (atomic_load_explicit(&wo->wakers[0], memory_order_relaxed) != serial)
        uld_wait_note_new_waker(wo, serial);
}
/* w's wake-up sequence, for a waiter to tell later whether it was woken. */
static inline uint32_t uld_wait_seq(const struct uld_lock *w)
{
    return w && w->wait ? atomic_load_explicit(&w->wait->wake_seq, memory_order_relaxed) : 0;
}

/* check.c, graph_lock held: a wait only other threads can end (record
 * held -> w, search every edge); ending w needs nd (record w -> nd). */
/* graph_lock held, for the entry points in waits.c: */
/* A join holding locks: the joined thread's noted needs become edges. */
void uld_wait_join_holding(struct uld_thread *t, struct uld_lock *w, uintptr_t ip) ULD_HIDDEN;
/* t arrives at the barrier at obj (its record made at first use). */
void uld_wait_barrier_arrive(struct uld_thread *t, const void *obj, uintptr_t ip) ULD_HIDDEN;
/* A timed wait on obj expired: did the timeout break a deadlock? */
void uld_check_timeout(struct uld_thread *t, const void *obj, uintptr_t ip) ULD_HIDDEN;
/* t passed a barrier (no graph_lock): its next round starts afresh. */
void uld_wait_barrier_passed(struct uld_thread *t) ULD_HIDDEN;
int uld_check_wait_on_others(struct uld_thread *t, struct uld_lock *w, uintptr_t ip) ULD_HIDDEN;
struct uld_need_origin {
    uint32_t stack; /* where the thread took the lock; 0: capture now */
    int tid;
    uint32_t serial;
};
void uld_check_needs(struct uld_thread *t, struct uld_lock *w, const struct uld_needed *nd,
                     const struct uld_need_origin *o, int search, uintptr_t ip) ULD_HIDDEN;

#endif
