/*
 * scale_50k_pairs.c - the edge lock_a -> lock_b is recorded first; then
 * 50000 other locks are used in 25000 nested pairs (pair[2i] ->
 * pair[2i+1]); last, lock_b -> lock_a.
 *
 * The unrelated pairs add 25000 edges that form no cycle; the final
 * acquisition must still find lock_a -> lock_b among them (the default
 * limits must hold this many edges: no limit-reached) and report exactly
 * the one inversion.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#define COUNT 50000

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));

    pthread_mutex_t *pair = calloc(COUNT, sizeof(*pair));
    CHECK(pair != NULL);
    for (int i = 0; i < COUNT; i++)
        OK(pthread_mutex_init(&pair[i], NULL));
    for (int i = 0; i < COUNT; i += 2) {
        OK(pthread_mutex_lock(&pair[i]));
        OK(pthread_mutex_lock(&pair[i + 1]));
        OK(pthread_mutex_unlock(&pair[i + 1]));
        OK(pthread_mutex_unlock(&pair[i]));
    }

    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));

    for (int i = 0; i < COUNT; i++)
        OK(pthread_mutex_destroy(&pair[i]));
    free(pair);
    return 0;
}
