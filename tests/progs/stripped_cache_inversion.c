/*
 * stripped_cache_inversion.c - twin of stripped_cache_clean.c where the
 * lookup touches its *own* cache's table while holding one of its entries:
 * message entry -> message table, and insertion message table -> bin ->
 * (another) message entry.  No object cycle yet, but one cache's entries,
 * tables and bins are each one class by any keying, and the class cycle
 * entry -> table -> bin -> entry closes as soon as the touched entry is the
 * one evicted: the warning must stay, in a stripped program too.
 *
 * EXPECT: class-order-inversion stripped_cache_inversion+0x* stripped_cache_inversion+0x*
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
    insert(mt, m1);
    insert(mt, m2); /* evicts m1 */
    insert(rt, rrset_entry_new(1));
    OK(pthread_rwlock_rdlock(&m2->lock));
    touch(mt); /* message entry -> message table */
    OK(pthread_rwlock_unlock(&m2->lock));
    return NULL;
}

int main(void)
{
    struct caches c = {msg_cache_new(), rrset_cache_new()};
    run_thread(worker, &c);
    return 0;
}
