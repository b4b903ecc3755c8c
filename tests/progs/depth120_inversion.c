/*
 * depth120_inversion.c - an ABBA set up deep in the held stack: thread 1
 * holds 120 filler locks, then takes lock_a and lock_b; thread 2 (later)
 * holds 120 *other* filler locks, then takes lock_b and lock_a.
 *
 * The fillers are different on each side, so no common lock serialises
 * the two nestings (see gate_mutex_clean.c): lock_a/lock_b can deadlock
 * and must be found at depth 121-122 like at depth 1.  The fillers are
 * only ever taken in index order: no other cycle.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#define DEPTH 120

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

struct side {
    pthread_mutex_t fillers[DEPTH];
    pthread_mutex_t *first, *second;
};

static void *deep_nest(void *arg)
{
    struct side *s = arg;
    for (int i = 0; i < DEPTH; i++)
        OK(pthread_mutex_lock(&s->fillers[i]));
    OK(pthread_mutex_lock(s->first));
    OK(pthread_mutex_lock(s->second));
    OK(pthread_mutex_unlock(s->second));
    OK(pthread_mutex_unlock(s->first));
    for (int i = DEPTH - 1; i >= 0; i--)
        OK(pthread_mutex_unlock(&s->fillers[i]));
    return NULL;
}

static __attribute__((noinline)) struct side *side_new(pthread_mutex_t *first,
                                                       pthread_mutex_t *second)
{
    struct side *s = malloc(sizeof(*s));
    CHECK(s != NULL);
    for (int i = 0; i < DEPTH; i++)
        OK(pthread_mutex_init(&s->fillers[i], NULL));
    s->first = first;
    s->second = second;
    return s;
}

int main(void)
{
    struct side *ab = side_new(&lock_a, &lock_b);
    struct side *ba = side_new(&lock_b, &lock_a);
    run_thread(deep_nest, ab);
    run_thread(deep_nest, ba);
    free(ab);
    free(ba);
    return 0;
}
