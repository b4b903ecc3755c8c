/*
 * chain.h - the chain cache, the validator's fast path (the kernel's
 * lookup_chain_cache()): a 64-bit hash of the held-lock sequence plus the
 * lock being acquired.  A hit means every dependency this acquisition
 * implies is already recorded and checked.  Lookups are lock-free; inserts
 * happen under graph_lock; when the table fills it is flushed (it is a
 * cache: a flush only costs re-validation).
 */
#ifndef ULD_CHAIN_H
#define ULD_CHAIN_H

#include "base/internal.h"

/* Mode bits mixed into a chain key. */
#define ULD_MODE_READ 0x1u
#define ULD_MODE_TRY 0x2u
#define ULD_MODE_NOCHECK 0x4u  /* acquired while checking was off */
#define ULD_MODE_WAIT 0x8u     /* a wait on a condvar/semaphore (never held) */
#define ULD_MODE_WAKE 0x10u    /* a signal/broadcast/post */
#define ULD_MODE_WAITED 0x20u  /* with TRY: a semaphore token taken by a wait (waits.c) */
#define ULD_MODE_BITS 6        /* every mode fits: chain keys mix node_id << 6 | mode */
_Static_assert(ULD_MODE_WAITED < 1u << ULD_MODE_BITS, "mode bits");

static inline uint64_t uld_chain_mix(uint64_t key, uint32_t node_id, unsigned mode)
{
    uint64_t x = key + 0x9e3779b97f4a7c15ull * (((uint64_t)node_id << ULD_MODE_BITS | mode) + 1);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x ? x : 1; /* 0 marks an empty slot */
}

int uld_chain_init(int bits) ULD_HIDDEN;          /* 0 on failure (cache disabled) */
int uld_chain_contains(uint64_t key) ULD_HIDDEN;  /* lock-free */
void uld_chain_insert(uint64_t key) ULD_HIDDEN;   /* graph_lock held */
void uld_chain_flush(void) ULD_HIDDEN;            /* graph_lock held */
long uld_chain_count(void) ULD_HIDDEN;
long uld_chain_flushes(void) ULD_HIDDEN;

#endif
