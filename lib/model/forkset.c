/*
 * forkset.c - the locks other threads held when the process forked.  Only
 * the forking thread lives on in the child, so these stay locked there
 * forever; the child touching one is a fork-holding problem, while locks
 * the child's own threads hold later are plain contention.
 *
 * A fixed open-addressed set: filled by fork's prepare step (graph_lock
 * held, so one fork at a time), then only read and pruned in the child,
 * where its threads may race: slots change by atomic compare-and-swap and
 * a removed entry leaves a tombstone.  No allocation, in either process.
 */
#include "forkset.h"

#include "base/internal.h"

#define FORKSET_SLOTS 4096               /* power of two */
#define FORKSET_MAX (FORKSET_SLOTS / 2)  /* entries; keeps probes short */
#define TOMB ((uintptr_t)1)              /* removed; lock addresses are aligned */

static _Atomic uintptr_t slots[FORKSET_SLOTS];
static _Atomic int count;

static unsigned slot_of(uintptr_t addr)
{
    uint64_t h = (uint64_t)addr * 0x9e3779b97f4a7c15ull;
    return (unsigned)(h >> 52) & (FORKSET_SLOTS - 1);
}

void uld_forkset_clear(void)
{
    for (unsigned i = 0; i < FORKSET_SLOTS; i++)
        atomic_store_explicit(&slots[i], 0, memory_order_relaxed);
    atomic_store(&count, 0);
}

void uld_forkset_add(uintptr_t addr)
{
    if (addr <= TOMB)
        return;
    for (unsigned i = slot_of(addr), n = 0; n < FORKSET_SLOTS; i = (i + 1) & (FORKSET_SLOTS - 1), n++) {
        uintptr_t cur = atomic_load_explicit(&slots[i], memory_order_relaxed);
        if (cur == addr)
            return; /* read-held by two threads */
        if (cur == 0) {
            if (ULD_WARN_ONCE(atomic_load(&count) >= FORKSET_MAX,
                              "fork: more than %d locks held by other threads; "
                              "fork-holding checks only some of them", FORKSET_MAX))
                return;
            atomic_store_explicit(&slots[i], addr, memory_order_relaxed);
            atomic_fetch_add(&count, 1);
            return;
        }
    }
}

/* The slot holding addr, or -1. */
static int find(uintptr_t addr)
{
    for (unsigned i = slot_of(addr), n = 0; n < FORKSET_SLOTS; i = (i + 1) & (FORKSET_SLOTS - 1), n++) {
        uintptr_t cur = atomic_load_explicit(&slots[i], memory_order_acquire);
        if (cur == addr)
            return (int)i;
        if (cur == 0)
            return -1;
    }
    return -1;
}

int uld_forkset_has(uintptr_t addr)
{
    return addr > TOMB && atomic_load_explicit(&count, memory_order_relaxed) > 0 &&
           find(addr) >= 0;
}

int uld_forkset_remove(uintptr_t addr)
{
    if (addr <= TOMB || atomic_load_explicit(&count, memory_order_relaxed) == 0)
        return 0;
    int i = find(addr);
    uintptr_t expect = addr;
    if (i < 0 || !atomic_compare_exchange_strong(&slots[i], &expect, TOMB))
        return 0;
    atomic_fetch_sub(&count, 1);
    return 1;
}

int uld_forkset_count(void)
{
    return atomic_load(&count);
}
