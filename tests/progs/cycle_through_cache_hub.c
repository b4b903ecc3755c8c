/*
 * cycle_through_cache_hub.c - a cache whose table lock is held while each
 * of its 300 entries' locks is taken (table_lock -> entry#i, the shape of
 * unbound's hash tables), a message lock held while the table is taken
 * (msg_lock -> table_lock), and one entry, #301, that is only ever taken
 * under entry #11 (entry#11 -> entry#301: two instances of one class).
 * Then a thread holding log_lock and entry #301 takes msg_lock.
 *
 * The new edge entry#301 -> msg_lock closes msg_lock -> table_lock ->
 * entry#11 -> entry#301 -> msg_lock: a lock-order-inversion of exactly
 * those four locks.  The cycle search from msg_lock is stopped early when a
 * search back from the edge's source runs out first (lib/model/bfs.c), so
 * this checks that the search back follows in-edges through every level,
 * including an edge between two locks of one class (which the class graph
 * does not record), and that it meets the search from msg_lock in the
 * middle.  The edge log_lock -> msg_lock is checked first in the same
 * acquisition and leads nowhere (nothing ever reaches log_lock): the search
 * from msg_lock it stopped must be resumed, not restarted or taken for
 * complete, for the second edge.
 *
 * EXPECT: lock-order-inversion msg_lock table_lock entry_new:*#11 entry_new:*#301
 */
#include "progs.h"

#define ENTRIES 300

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t msg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

struct entry {
    pthread_mutex_t lock;
    int value;
};

static struct entry *entries[ENTRIES + 1];

static __attribute__((noinline)) struct entry *entry_new(int value)
{
    struct entry *e = malloc(sizeof(*e));
    CHECK(e != NULL);
    OK(pthread_mutex_init(&e->lock, NULL));
    e->value = value;
    return e;
}

static void nest(pthread_mutex_t *outer, pthread_mutex_t *inner)
{
    OK(pthread_mutex_lock(outer));
    OK(pthread_mutex_lock(inner));
    OK(pthread_mutex_unlock(inner));
    OK(pthread_mutex_unlock(outer));
}

static void *fill_table(void *arg)
{
    for (int i = 0; i < ENTRIES; i++)
        nest(&table_lock, &entries[i]->lock);
    return arg;
}

static void *link_entries(void *arg)
{
    nest(&entries[10]->lock, &entries[ENTRIES]->lock);
    nest(&msg_lock, &table_lock);
    return arg;
}

static void *close_cycle(void *arg)
{
    OK(pthread_mutex_lock(&log_lock));
    OK(pthread_mutex_lock(&entries[ENTRIES]->lock));
    OK(pthread_mutex_lock(&msg_lock));
    OK(pthread_mutex_unlock(&msg_lock));
    OK(pthread_mutex_unlock(&entries[ENTRIES]->lock));
    OK(pthread_mutex_unlock(&log_lock));
    return arg;
}

int main(void)
{
    for (int i = 0; i <= ENTRIES; i++)
        entries[i] = entry_new(i);
    run_thread(fill_table, NULL);
    run_thread(link_entries, NULL);
    run_thread(close_cycle, NULL);
    for (int i = 0; i <= ENTRIES; i++) {
        OK(pthread_mutex_destroy(&entries[i]->lock));
        free(entries[i]);
    }
    return 0;
}
