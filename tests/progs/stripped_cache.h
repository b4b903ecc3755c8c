/*
 * stripped_cache.h - the caches of unbound 1.17 (util/storage/lruhash.c,
 * slabhash.c), for the stripped_cache_* programs, which are linked
 * stripped (no .symtab: tests/progs/CMakeLists.txt, ULD_PROGS_STRIPPED) as
 * Debian ships unbound.  Every cache is a slab of tables made by one helper
 * chain: table_create <- slab_create <- {msg_cache_new, rrset_cache_new};
 * a table has a spinlock and bins (bin_init, one call deeper) and holds
 * entries with an rwlock (entry_setup, under msg_entry_new and
 * rrset_entry_new).  insert() is lruhash_insert -> reclaim_space: table
 * lock, bin lock, then the evicted entry write-locked; touch() is
 * lruhash_touch: the table lock alone.
 */
#include "progs.h"

#define NBINS 4
#define NTABLES 2
#define NOINL __attribute__((noinline))

struct entry { pthread_rwlock_t lock; int key; };
struct bin { pthread_spinlock_t lock; int n; };
struct table { pthread_spinlock_t lock; struct bin bins[NBINS]; struct entry *lru_end; };
struct slab { struct table *tables[NTABLES]; };

static NOINL void bin_init(struct bin *b, int n)
{
    for (int i = 0; i < n; i++)
        OK(pthread_spin_init(&b[i].lock, PTHREAD_PROCESS_PRIVATE));
}

static NOINL struct table *table_create(void)
{
    struct table *t = calloc(1, sizeof(*t));
    CHECK(t != NULL);
    OK(pthread_spin_init(&t->lock, PTHREAD_PROCESS_PRIVATE));
    bin_init(t->bins, NBINS);
    return t;
}

static NOINL struct slab *slab_create(void)
{
    struct slab *s = calloc(1, sizeof(*s));
    CHECK(s != NULL);
    for (int i = 0; i < NTABLES; i++)
        s->tables[i] = table_create();
    return s;
}

static NOINL struct slab *msg_cache_new(void) { return slab_create(); }
static NOINL struct slab *rrset_cache_new(void) { return slab_create(); }

static NOINL void entry_setup(struct entry *e, int key)
{
    OK(pthread_rwlock_init(&e->lock, NULL));
    e->key = key;
}

static NOINL struct entry *msg_entry_new(int key)
{
    struct entry *e = calloc(1, sizeof(*e));
    CHECK(e != NULL);
    entry_setup(e, key);
    return e;
}

static NOINL struct entry *rrset_entry_new(int key)
{
    struct entry *e = calloc(1, sizeof(*e));
    CHECK(e != NULL);
    entry_setup(e, key + 1000);
    return e;
}

/* lruhash_insert -> reclaim_space: the table full, its LRU end evicted */
static NOINL void insert(struct table *t, struct entry *e)
{
    OK(pthread_spin_lock(&t->lock));
    struct entry *victim = t->lru_end;
    if (victim) {
        struct bin *b = &t->bins[victim->key % NBINS];
        OK(pthread_spin_lock(&b->lock));
        OK(pthread_rwlock_wrlock(&victim->lock));
        b->n--;
        OK(pthread_rwlock_unlock(&victim->lock));
        OK(pthread_spin_unlock(&b->lock));
    }
    t->lru_end = e;
    OK(pthread_spin_unlock(&t->lock));
}

/* lruhash_touch */
static NOINL void touch(struct table *t)
{
    OK(pthread_spin_lock(&t->lock));
    OK(pthread_spin_unlock(&t->lock));
}
