/*
 * cycle3.c - a cycle of three locks built by three threads that run one
 * after the other: lock_a -> lock_b, lock_b -> lock_c, lock_c -> lock_a.
 *
 * No two threads invert a pair, yet three threads running these paths
 * together can each hold one lock and wait for the next.  The third edge
 * closes the cycle, so one report naming the three locks.
 *
 * EXPECT: lock-order-inversion lock_a lock_b lock_c
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;

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
    struct pair ab = {&lock_a, &lock_b}, bc = {&lock_b, &lock_c}, ca = {&lock_c, &lock_a};
    run_thread(nest, &ab);
    run_thread(nest, &bc);
    run_thread(nest, &ca);
    return 0;
}
