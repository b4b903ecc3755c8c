/*
 * tomb.c - destroyed locks, for use-after-destroy.  graph_lock protects all.
 *
 * A mutex, rwlock or spinlock that pthread_*_destroy ended leaves a
 * tombstone at its address: its record (kept out of the address table, so
 * nothing finds it as a live lock, but with its name and class for the
 * report), its old id and where it was destroyed.  A later lock call at that
 * address that finds no live record asks here whether the object is still
 * the destroyed one: then it is use-after-destroy, reported once per
 * tombstone, and the call is left to the program.  The evidence per type:
 *
 *   mutex     glibc's own mark: destroy sets __kind to -1, and every way of
 *             making a mutex again (init, PTHREAD_MUTEX_INITIALIZER, a
 *             std::mutex built there) writes another kind;
 *   rwlock    the identity tag (locktype.h) still in the object: a rwlock built
 *             again through its static initialiser has lost it; without a
 *             tag (process-shared, lock_tags=0) the address alone;
 *   spinlock  the address alone (a spinlock is made only by pthread_spin_init,
 *             which ends the tombstone).
 *
 * A tombstone ends when a new lifetime starts at its address (init, or a
 * first use that finds the object built again) and when its memory is
 * freed: the allocator hands that memory to any object next.  The table is
 * bounded (max_tombstones): when it is full, new destroys leave no
 * tombstone (one limit-reached warning); a mutex is still caught by glibc's
 * mark, without the place of its destroy.
 */
#include "base/config.h"
#include "base/tablefull.h"
#include "lazy.h"
#include "state.h"
#include "lock.h"
#include "stack.h"
#include "tomb.h"

struct tomb {
    uintptr_t addr;          /* 0: free slot */
    struct uld_lock *rec;    /* retired record: names the lock in reports */
    uint32_t id;             /* the lock's id when it was destroyed (its tag) */
    uintptr_t ip;            /* the program's call of destroy; 0 unknown */
    uint8_t type, tagged, reported;
};

static struct tomb *slots;
static size_t nslots, used;

static size_t tomb_hash(uintptr_t a)
{
    return (size_t)(((uint64_t)a * 0x9e3779b97f4a7c15ull) >> 24) & (nslots - 1);
}

static struct tomb *tomb_find(uintptr_t addr)
{
    if (!used)
        return NULL;
    for (size_t i = tomb_hash(addr);; i = (i + 1) & (nslots - 1)) {
        if (slots[i].addr == addr)
            return &slots[i];
        if (!slots[i].addr)
            return NULL;
    }
}

int uld_tomb_at(uintptr_t addr)
{
    return uld_lockmap_tomb_marked(addr); /* set and cleared with the entry */
}

/* Linear probing without markers: later entries of the run shift back. */
static void tomb_remove(struct tomb *tb)
{
    size_t mask = nslots - 1, hole = (size_t)(tb - slots);
    uld_lock_release_record(tb->rec);
    uld_lockmap_tomb_mark(tb->addr, 0);
    slots[hole].addr = 0;
    used--;
    for (size_t i = (hole + 1) & mask; slots[i].addr; i = (i + 1) & mask) {
        size_t home = tomb_hash(slots[i].addr);
        /* may entry i move into the hole?  yes unless its home lies in (hole, i] */
        if ((i > hole && (home <= hole || home > i)) || (i < hole && home <= hole && home > i)) {
            slots[hole] = slots[i];
            slots[i].addr = 0;
            hole = i;
        }
    }
}

static struct tomb *slot_for(uintptr_t addr)
{
    size_t i = tomb_hash(addr);
    while (slots[i].addr)
        i = (i + 1) & (nslots - 1);
    return &slots[i];
}

/* Keep the table at most half full; it grows with the tombstones it holds
 * (no lock-free readers: the old table is unmapped at once). */
static int make_room(void)
{
    if (slots && (used + 1) * 2 <= nslots)
        return 1;
    size_t n = slots ? nslots * 2 : 1024;
    struct tomb *old = slots, *fresh = uld_map(n * sizeof(*fresh));
    size_t old_n = nslots;
    if (!fresh)
        return 0;
    slots = fresh;
    nslots = n;
    for (size_t i = 0; i < old_n; i++)
        if (old[i].addr)
            *slot_for(old[i].addr) = old[i];
    if (old)
        uld_unmap(old, old_n * sizeof(*old));
    return 1;
}

static struct tomb *tomb_insert(uintptr_t addr)
{
    if (used >= (size_t)uld_config.max_tombstones) {
        uld_table_full("tombstone", uld_config.max_tombstones, "max_tombstones");
        return NULL;
    }
    if (!make_room())
        return NULL;
    if (!uld_lockmap_tomb_mark(addr, 1)) /* no bitmap for addr: nothing could find it */
        return NULL;
    struct tomb *tb = slot_for(addr);
    used++;
    *tb = (struct tomb){.addr = addr};
    return tb;
}

void uld_tomb_bury(struct uld_lock *l, uintptr_t addr, struct uld_lockdesc pre, uintptr_t ip)
{
    struct tomb *old = uld_lockmap_tomb_marked(addr) ? tomb_find(addr) : NULL;
    if (old)
        tomb_remove(old);
    struct tomb *tb = tomb_insert(addr);
    if (!tb) {
        uld_lock_forget(l);
        return;
    }
    tb->rec = l;
    tb->id = l->id;
    tb->type = l->type;
    tb->ip = ip; /* the call site only: a stack capture per destroy costs too much */
    /* a rwlock first met at its destroy carries no tag yet: give it one */
    if (pre.tag && !(pre.flags & ULD_LF_DESTROYED)) {
        __atomic_store_n(pre.tag, uld_lock_tag(l), __ATOMIC_RELAXED);
        tb->tagged = 1;
    }
    if (!uld_lockmap_marked(addr)) /* a record's is (lockmap.c); a first-met lock's too */
        uld_lockmap_mark(addr); /* before the retire: free() must find the granule */
    uld_lock_retire(l);
}

void uld_tomb_end(uintptr_t addr)
{
    struct tomb *tb = uld_lockmap_tomb_marked(addr) ? tomb_find(addr) : NULL;
    if (tb)
        tomb_remove(tb); /* the granule stays marked: a lock lives there now */
}

void uld_tomb_drop(uintptr_t addr)
{
    struct tomb *tb = tomb_find(addr);
    if (tb) {
        tomb_remove(tb);
        uld_lockmap_unmark(addr);
    }
}

/* Is the object at addr still the one destroyed (see the top comment)? */
static int still_destroyed(const struct tomb *tb, struct uld_lockdesc d)
{
    if (tb->type != d.type)
        return 0;
    if (d.type == ULD_TYPE_MUTEX)
        return (d.flags & ULD_LF_DESTROYED) != 0;
    if (d.type == ULD_TYPE_RWLOCK && d.tag && tb->tagged)
        return __atomic_load_n(d.tag, __ATOMIC_RELAXED) == (ULD_TAG_MAGIC | tb->id);
    return 1;
}

int uld_tomb_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip, struct uld_dead_use *out)
{
    out->rec = NULL;
    if (d.type != ULD_TYPE_MUTEX && d.type != ULD_TYPE_RWLOCK && d.type != ULD_TYPE_SPIN)
        return 0;
    struct tomb *tb = tomb_find(addr);
    if (tb && !still_destroyed(tb, d)) {
        uld_tomb_drop(addr); /* built again without an init call: a new lock */
        return 0;
    }
    if (!tb) {
        /* no tombstone (memory freed since, or the table was full), but glibc
         * marked the mutex destroyed: bury it now, place of destroy unknown */
        if (!(d.flags & ULD_LF_DESTROYED) || uld_lock_lookup(addr))
            return 0;
        d.flags &= (uint8_t)~ULD_LF_DESTROYED;
        struct uld_lock *l = uld_lock_first_use(addr, d, ip);
        if (!l)
            return 1;
        *out = (struct uld_dead_use){l, l->id, 0};
        uld_tomb_bury(l, addr, d, 0);
        if ((tb = tomb_find(addr)))
            tb->reported = 1;
        return 1;
    }
    if (!tb->reported) {
        tb->reported = 1;
        if (tb->rec->is_static == ULD_STATIC_UNKNOWN) /* its address is gone from the record */
            tb->rec->is_static = (uint8_t)uld_addr_is_static(addr);
        *out = (struct uld_dead_use){tb->rec, tb->id, tb->ip};
    }
    return 1;
}
