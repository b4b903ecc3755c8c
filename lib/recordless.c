/*
 * recordless.c - a mutex's first acquisition by a thread holding nothing,
 * made without a record.
 *
 * Per-request objects get a mutex that one thread initialises, locks
 * holding nothing else, unlocks and destroys.  With the record made at the
 * first acquisition, that lifetime costs a global lock twice (the record
 * made, then buried) for a lock that was never part of any dependency.  So
 * a plain mutex whose tag is still pending (lazy.c: no record, nothing
 * buried at its address), locked at depth 0 with no signal handler
 * installed and no semaphore's "taken since" to feed, is pushed as a
 * recordless entry (thread.h) once a trylock took it (a lock that would
 * block takes the slow path, which makes the record: a thread blocked on a
 * lock always finds it recorded).  Its thread-end
 * need is noted by address and tag (rules/wait.c); its unlock is the fast
 * path's pop; its destroy the inline one, which drops that need.  The
 * barrier's "taken since" keeps it the same way, made a record of at the
 * thread's arrival.
 *
 * Everything else about the acquisition is only deferred: the thread's
 * next entry into the validator (an acquisition on top, a wait, a report,
 * exit) makes the record and does what the slow path would have done
 * (uld_acquire_deferred).  Other threads see the entry by address: the
 * fork check and the watchdog make the record from the entry's tag
 * (uld_lazy_record_at), a destroy or an unlock from the object's.
 */
#include "entry.h"
#include "fastpath.h"

#include "rules/wait.h"

#include <pthread.h>
#include <stdint.h>

int uld_recordless_lock(pthread_mutex_t *m, uint64_t *tag_word, uintptr_t ip,
                        int (*trylock)(pthread_mutex_t *))
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)m;
    if (!t || t->depth || t->sem_addr ||
        atomic_load_explicit(&uld_signal_handlers, memory_order_relaxed))
        return 0;
    uint64_t tag = __atomic_load_n(tag_word, __ATOMIC_RELAXED);
    if (!uld_tag_is_pending(tag) || uld_lockmap_may_have_record(addr))
        return 0;
    /* depth 0: an earlier recordless entry was popped, nothing to make */
    uld_fast_hold_off();
    int pushed = uld_wait_note_recordless(t, addr, tag_word, tag, ip) && trylock(m) == 0;
    if (pushed) {
        t->held[0] = (struct uld_held){.addr = addr, .lock = &uld_recordless,
                                       .chain_key = (uintptr_t)tag_word, .ip = ip,
                                       .lock_id = UINT32_MAX, .type = ULD_TYPE_MUTEX,
                                       .pending = tag};
        t->depth = 1;
        t->recordless = 1;
        if (t->max_depth < 1)
            t->max_depth = 1;
    }
    uld_fast_resume(t);
    return pushed;
}

void uld_recordless_materialise(struct uld_thread *t)
{
    t->recordless = 0;
    struct uld_held *h = &t->held[0];
    if (t->depth != 1 || !uld_held_recordless(h))
        return; /* popped meanwhile (nothing is pushed on top without entering) */
    uintptr_t addr = h->addr, ip = h->ip;
    uint64_t *tag_word = (uint64_t *)h->chain_key;
    t->depth = 0;
    uld_acquire_deferred(t, addr, (struct uld_lockdesc){.type = ULD_TYPE_MUTEX, .tag = tag_word},
                         ip);
    uld_wait_recordless_drop(t, addr); /* noted as the record's need now */
}

void uld_recordless_destroyed(struct uld_thread *t, const void *lock)
{
    uld_fast_hold_off();
    uld_wait_recordless_drop(t, (uintptr_t)lock);
    uld_fast_resume(t);
}

/* fork's prepare step: another thread's recordless entry gets its record,
 * for the child's check (graph_lock held). */
void uld_recordless_publish(const struct uld_held *h)
{
    if (uld_held_recordless(h))
        uld_lazy_record_at(h->addr, (const uint64_t *)h->chain_key, h->pending);
}
