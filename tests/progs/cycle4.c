/*
 * cycle4.c - a cycle of four locks, one edge per thread:
 * lock_a -> lock_b -> lock_c -> lock_d -> lock_a.
 *
 * Four threads running these paths together can deadlock, each holding
 * one lock and waiting for the next; the last edge closes the only cycle,
 * and the report names all four locks.
 *
 * EXPECT: lock-order-inversion lock_a lock_b lock_c lock_d
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_d = PTHREAD_MUTEX_INITIALIZER;

struct pair {
    pthread_mutex_t *first, *second;
};

static void *nest(void *arg)
{
    struct pair *p = arg;
    OK(pthread_mutex_lock(p->first));
    OK(pthread_mutex_lock(p->second));
    OK(pthread_mutex_unlock(p->second));
    OK(pthread_mutex_unlock(p->first));
    return NULL;
}

int main(void)
{
    struct pair edges[] = {
        {&lock_a, &lock_b}, {&lock_b, &lock_c}, {&lock_c, &lock_d}, {&lock_d, &lock_a},
    };
    for (unsigned i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        run_thread(nest, &edges[i]);
    return 0;
}
