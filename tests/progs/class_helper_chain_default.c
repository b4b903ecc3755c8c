/*
 * class_helper_chain_default.c - twin of class_helper_chain_option_clean.c
 * without the `wrappers=` option: every table lock is initialised on one
 * line of lruhash_create(), so by the kernel's rule they are one class, and
 * taking an infra table, stats_lock, then an rrset table is the class
 * cycle T -> stats_lock -> T.  ulockdep says so (a warning, exit 0); the
 * option in the twin is how a user who knows the tables never meet tells
 * it otherwise.
 *
 * EXPECT: class-order-inversion lruhash_create:* stats_lock
 */
#include "progs.h"

struct lruhash { pthread_mutex_t lock; size_t num; };
struct slabhash { size_t size; struct lruhash **array; };

__attribute__((noinline)) struct lruhash *lruhash_create(size_t start_size)
{
    struct lruhash *t = calloc(1, sizeof(*t));
    CHECK(t != NULL);
    OK(pthread_mutex_init(&t->lock, NULL));
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
    OK(pthread_mutex_lock(&stats_lock));
    OK(pthread_mutex_lock(&rrset->lock));
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
