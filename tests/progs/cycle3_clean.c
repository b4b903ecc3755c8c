/*
 * cycle3_clean.c - clean twin of cycle3.c: lock_a -> lock_b,
 * lock_b -> lock_c and the shortcut lock_a -> lock_c.
 *
 * The edges form a triangle but not a cycle (every path goes a, b, c in
 * that order), so there is a consistent global order: no report.  Catches
 * a validator that treats the graph as undirected.
 *
 * EXPECT: none
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
    struct pair ab = {&lock_a, &lock_b}, bc = {&lock_b, &lock_c}, ac = {&lock_a, &lock_c};
    run_thread(nest, &ab);
    run_thread(nest, &bc);
    run_thread(nest, &ac);
    return 0;
}
