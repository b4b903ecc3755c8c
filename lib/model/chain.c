/*
 * chain.c - the validated-chain cache: open addressing over 64-bit keys with
 * a short probe window.  Readers never write; inserts and flushes run under
 * graph_lock.  A reader racing a flush sees a key or zero, both correct for a
 * cache (every key ever stored was validated).
 *
 * Readers do not touch a page of the table no insert has written (a bit per
 * page says): a read of an untouched anonymous page maps the shared zero
 * page, and the first insert there would then have to replace it in every
 * CPU's TLB (an interrupt to each CPU running the program, for each page).
 */
#include "chain.h"

#include <sys/mman.h>

#define CHAIN_PROBES 32
#define PAGE_SLOTS (4096 / sizeof(uint64_t))

static _Atomic uint64_t *slots;
static _Atomic uint64_t *written; /* a bit per page of slots */
static size_t nslots;
static long count, flushes;

int uld_chain_init(int bits)
{
    nslots = (size_t)1 << bits;
    size_t npages = (nslots + PAGE_SLOTS - 1) / PAGE_SLOTS;
    written = uld_map((npages + 63) / 64 * sizeof(*written));
    slots = written ? uld_map(nslots * sizeof(*slots)) : NULL;
    return slots != NULL;
}

static size_t slot_of(uint64_t key)
{
    return (size_t)(key ^ (key >> 29)) & (nslots - 1);
}

static int page_written(size_t i)
{
    size_t page = i / PAGE_SLOTS;
    return atomic_load_explicit(&written[page / 64], memory_order_acquire) >> (page % 64) & 1;
}

int uld_chain_contains(uint64_t key)
{
    if (unlikely(!slots))
        return 0;
    size_t i = slot_of(key);
    for (int p = 0; p < CHAIN_PROBES; p++, i = (i + 1) & (nslots - 1)) {
        if ((p == 0 || i % PAGE_SLOTS == 0) && !page_written(i))
            return 0; /* no insert reached this page: nothing further either */
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
    size_t npages = (nslots + PAGE_SLOTS - 1) / PAGE_SLOTS;
    for (size_t w = 0; w < (npages + 63) / 64; w++)
        atomic_store_explicit(&written[w], 0, memory_order_relaxed);
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
            /* an unwritten page is read as zero without touching it (see above) */
            uint64_t v = page_written(i) ? atomic_load_explicit(&slots[i], memory_order_relaxed)
                                         : 0;
            if (v == key)
                return;
            if (v == 0) {
                atomic_store_explicit(&slots[i], key, memory_order_release);
                size_t page = i / PAGE_SLOTS;
                if (!page_written(i))
                    atomic_fetch_or_explicit(&written[page / 64], 1ull << (page % 64),
                                             memory_order_release);
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
