/*
 * chain.c - the validated-chain cache: open addressing over 64-bit keys with
 * a short probe window.  Readers never write; inserts and flushes run under
 * graph_lock.  A reader racing a flush sees a key or zero, both correct for a
 * cache (every key ever stored was validated).
 */
#include "chain.h"

#include <sys/mman.h>

#define CHAIN_PROBES 32

static _Atomic uint64_t *slots;
static size_t nslots;
static long count, flushes;

int uld_chain_init(int bits)
{
    nslots = (size_t)1 << bits;
    slots = uld_map(nslots * sizeof(*slots));
    return slots != NULL;
}

static size_t slot_of(uint64_t key)
{
    return (size_t)(key ^ (key >> 29)) & (nslots - 1);
}

int uld_chain_contains(uint64_t key)
{
    if (unlikely(!slots))
        return 0;
    size_t i = slot_of(key);
    for (int p = 0; p < CHAIN_PROBES; p++, i = (i + 1) & (nslots - 1)) {
        uint64_t v = atomic_load_explicit(&slots[i], memory_order_acquire);
        if (v == key)
            return 1;
        if (v == 0)
            return 0;
    }
    return 0;
}

void uld_chain_flush(void)
{
    /* Anonymous private pages read back as zero after MADV_DONTNEED. */
    madvise((void *)slots, nslots * sizeof(*slots), MADV_DONTNEED);
    count = 0;
    flushes++;
}

void uld_chain_insert(uint64_t key)
{
    if (!slots)
        return;
    if ((size_t)count >= nslots / 2)
        uld_chain_flush();
    for (int attempt = 0; attempt < 2; attempt++) {
        size_t i = slot_of(key);
        for (int p = 0; p < CHAIN_PROBES; p++, i = (i + 1) & (nslots - 1)) {
            uint64_t v = atomic_load_explicit(&slots[i], memory_order_relaxed);
            if (v == key)
                return;
            if (v == 0) {
                atomic_store_explicit(&slots[i], key, memory_order_release);
                count++;
                return;
            }
        }
        uld_chain_flush(); /* a crowded neighbourhood: start over */
    }
}

long uld_chain_count(void)
{
    return count;
}

long uld_chain_flushes(void)
{
    return flushes;
}
