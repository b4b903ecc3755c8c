/*
 * class_helper_chain_option_clean.c - hash tables built by a constructor
 * chain, as unbound 1.17's caches: rrset_cache_create() and infra_create()
 * call slabhash_create(), which calls lruhash_create() once per slab, and
 * lruhash_create() initialises the table's lock itself.
 *
 * The worker takes an infra-cache table lock, the global statistics lock,
 * then an rrset-cache table lock, always in that order: no cycle.  By the
 * kernel's rule (one class per init call site in the source) every table
 * lock is one class, lruhash_create's, and this nesting is the class cycle
 * T -> stats_lock -> T, as it would be in the kernel without a
 * lockdep_set_class().  The user's equivalent is to name the constructors
 * as wrappers (`wrappers=lruhash_create:slabhash_create`, colon-separated
 * like the other options): the class is then the site that asked for the
 * cache, one per cache.  No report; without the option, a
 * class-order-inversion warning.
 *
 * OPTIONS: wrappers=lruhash_create:slabhash_create
 * EXPECT: none
 */
#include "progs.h"

struct lruhash { pthread_mutex_t lock; size_t num; };
struct slabhash { size_t size; struct lruhash **array; };

__attribute__((noinline)) struct lruhash *lruhash_create(size_t start_size)
{
    struct lruhash *t = calloc(1, sizeof(*t));
    CHECK(t != NULL);
    OK(pthread_mutex_init(&t->lock, NULL)); /* lock_quick_init(&table->lock) */
    t->num = start_size - start_size;
    return t;
}

__attribute__((noinline)) struct slabhash *slabhash_create(size_t numtables, size_t start_size)
{
    struct slabhash *sl = calloc(1, sizeof(*sl));
    CHECK(sl != NULL && (sl->array = calloc(numtables, sizeof(*sl->array))) != NULL);
    sl->size = numtables;
    for (size_t i = 0; i < numtables; i++)
        sl->array[i] = lruhash_create(start_size);
    return sl;
}

static __attribute__((noinline)) struct slabhash *rrset_cache_create(void) { return slabhash_create(4, 1024); }
static __attribute__((noinline)) struct slabhash *infra_create(void) { return slabhash_create(4, 256); }

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
struct caches { struct slabhash *rrset, *infra; };

static void *worker(void *arg)
{
    struct caches *c = arg;
    struct lruhash *infra = c->infra->array[1], *rrset = c->rrset->array[2];
    OK(pthread_mutex_lock(&infra->lock));
    OK(pthread_mutex_lock(&stats_lock)); /* infra table -> stats_lock */
    OK(pthread_mutex_lock(&rrset->lock)); /* stats_lock -> rrset table */
    rrset->num++;
    OK(pthread_mutex_unlock(&rrset->lock));
    OK(pthread_mutex_unlock(&stats_lock));
    OK(pthread_mutex_unlock(&infra->lock));
    return NULL;
}

int main(void)
{
    struct caches c = {rrset_cache_create(), infra_create()};
    run_thread(worker, &c);
    CHECK(c.rrset->array[2]->num == 1);
    return 0;
}
