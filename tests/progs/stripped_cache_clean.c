/*
 * stripped_cache_clean.c - unbound's caches in a stripped program (see
 * stripped_cache.h).  dns_cache_lookup holds a message entry's lock while
 * rrset_array_unlock_touch -> lruhash_touch takes the *rrset* cache's
 * table lock; every insertion holds a table, its bin and write-locks the
 * entry it evicts, in the same cache.  Message entry -> rrset table ->
 * rrset bin -> rrset entry: no object order cycles, nor would it if the
 * caches were told apart by purpose.  With the init site alone every table
 * (bin, entry) of every cache is one class, and the class cycle
 * entry -> table -> bin -> entry is a false warning; with no names to
 * match, the class of a lock initialised in code without names takes the
 * callers that reached it (docs/design.md), so the caches are apart.
 *
 * EXPECT: none
 */
#include "stripped_cache.h"

struct caches { struct slab *msg, *rrset; };

static void *worker(void *arg)
{
    struct caches *c = arg;
    struct table *mt = c->msg->tables[0], *rt = c->rrset->tables[1];
    struct entry *m[2];
    volatile int nmsg = 2; /* not unrolled: one store path, dns_cache_store_msg */
    for (int i = 0; i < nmsg; i++)
        m[i] = msg_entry_new(i);
    struct entry *m1 = m[0], *m2 = m[1];
    struct entry *r1 = rrset_entry_new(1), *r2 = rrset_entry_new(2);
    insert(mt, m1);
    insert(mt, m2); /* evicts m1: msg table -> msg bin -> msg entry */
    insert(rt, r1);
    insert(rt, r2); /* evicts r1 */
    OK(pthread_rwlock_rdlock(&m2->lock)); /* msg_cache_lookup */
    touch(rt);                            /* tomsg -> lruhash_touch(rrset table) */
    OK(pthread_rwlock_unlock(&m2->lock));
    return NULL;
}

int main(void)
{
    struct caches c = {msg_cache_new(), rrset_cache_new()};
    run_thread(worker, &c);
    return 0;
}
