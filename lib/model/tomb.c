/*
 * tomb.c - destroyed locks, for use-after-destroy.  graph_lock protects all.
 *
 * A mutex, rwlock or spinlock that pthread_*_destroy ended leaves a
 * tombstone at its address: its record (kept in the address table marked
 * dead, so nothing finds it as a live lock, but with its name and class for
 * the report), its old id and where it was destroyed.  A later lock call at that
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
 * freed: the allocator hands that memory to any object next.  Tombstones
 * are kept in the address table (lockmap.c): the retired record stays in
 * the slot it had, marked dead, with its old id and the destroy's call
 * site, so burying a lock and ending its tombstone (the next record at the
 * address takes the slot) are one slot write each.  They are bounded
 * (max_tombstones): when that many are kept, new destroys leave none (one
 * limit-reached warning); a mutex is still caught by glibc's mark, without
 * the place of its destroy.
 */
#include "base/config.h"
#include "base/tablefull.h"
#include "lazy.h"
#include "state.h"
#include "lock.h"
#include "stack.h"
#include "tomb.h"

int uld_tomb_at(uintptr_t addr)
{
    return uld_lockmap_tomb_marked(addr); /* set and cleared with the entry */
}

void uld_tomb_bury(struct uld_lock *l, uintptr_t addr, struct uld_lockdesc pre, uintptr_t ip)
{
    if (uld_lockmap_tomb_marked(addr)) /* an older lifetime's, if any were left */
        uld_lockmap_dead_end(addr);
    uint64_t tag = uld_lock_tag(l); /* its id goes with the lifetime */
    if (uld_lockmap_buried() >= uld_config.max_tombstones) {
        uld_table_full("tombstone", uld_config.max_tombstones, "max_tombstones");
        uld_lock_forget(l);
        return;
    }
    if (!uld_lock_bury(l)) { /* which keeps addr's granule bit: free() must find it */
        uld_lock_forget(l);
        return;
    }
    l->destroy_ip = ip; /* the call site only: a stack capture per destroy costs too much */
    /* a rwlock first met at its destroy carries no tag yet: give it one */
    if (pre.tag && !(pre.flags & ULD_LF_DESTROYED)) {
        __atomic_store_n(pre.tag, tag, __ATOMIC_RELAXED);
        l->dead_tagged = 1;
    }
}

void uld_tomb_end(uintptr_t addr)
{
    uld_lockmap_dead_end(addr); /* the granule stays marked: a lock lives there now */
}

void uld_tomb_drop(uintptr_t addr)
{
    if (uld_lockmap_dead(addr)) {
        uld_lockmap_dead_end(addr);
        uld_lockmap_unmark(addr);
    }
}

/* Is the object at addr still the one destroyed (see the top comment)? */
static int still_destroyed(const struct uld_lock *rec, struct uld_lockdesc d)
{
    if (rec->type != d.type)
        return 0;
    if (d.type == ULD_TYPE_MUTEX)
        return (d.flags & ULD_LF_DESTROYED) != 0;
    if (d.type == ULD_TYPE_RWLOCK && d.tag && rec->dead_tagged)
        return __atomic_load_n(d.tag, __ATOMIC_RELAXED) == (ULD_TAG_MAGIC | rec->dead_id);
    return 1;
}

int uld_tomb_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip, struct uld_dead_use *out)
{
    out->rec = NULL;
    if (d.type != ULD_TYPE_MUTEX && d.type != ULD_TYPE_RWLOCK && d.type != ULD_TYPE_SPIN)
        return 0;
    struct uld_lock *tb = uld_lockmap_dead(addr);
    if (tb && !still_destroyed(tb, d)) {
        uld_tomb_drop(addr); /* built again without an init call: a new lock */
        return 0;
    }
    if (!tb) {
        /* no tombstone (memory freed since, the limit was reached, or never
         * recorded), but glibc marked the mutex destroyed: bury it now, at
         * the destroy site a lock without a record left in its tag word
         * (lazy.c), else unknown */
        if (!(d.flags & ULD_LF_DESTROYED) || uld_lock_lookup(addr))
            return 0;
        d.flags &= (uint8_t)~ULD_LF_DESTROYED;
        uintptr_t site = d.tag ? uld_tag_dead_ip(__atomic_load_n(d.tag, __ATOMIC_RELAXED)) : 0;
        d.tag = NULL; /* the object keeps glibc's mark, and our destroy site */
        struct uld_lock *l = uld_lock_first_use(addr, d, ip);
        if (!l)
            return 1;
        *out = (struct uld_dead_use){l, l->id, site};
        uld_tomb_bury(l, addr, d, site);
        if ((tb = uld_lockmap_dead(addr)))
            tb->dead_reported = 1;
        return 1;
    }
    if (!tb->dead_reported) {
        tb->dead_reported = 1;
        if (tb->is_static == ULD_STATIC_UNKNOWN) /* its address is gone from the record */
            tb->is_static = (uint8_t)uld_addr_is_static(addr);
        *out = (struct uld_dead_use){tb, tb->dead_id, tb->destroy_ip};
    }
    return 1;
}
