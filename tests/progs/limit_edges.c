/*
 * limit_edges.c - OPTIONS max_edges=64, then 200 distinct nested pairs of
 * locks (200 new edges).
 *
 * The edge table fills up: one limit-reached warning (printed once per
 * table), after which checking goes on in a degraded mode.  The program
 * must complete normally and, with no error reported, exit 0.  All locks
 * share one init site, hence one class, so no other table comes near a
 * limit.
 *
 * OPTIONS: max_edges=64
 * EXPECT: limit-reached
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: ^limit_edges: completed$
 */
#include "progs.h"

#define PAIRS 200

int main(void)
{
    pthread_mutex_t *locks = calloc(2 * PAIRS, sizeof(*locks));
    CHECK(locks != NULL);
    for (int i = 0; i < 2 * PAIRS; i++)
        OK(pthread_mutex_init(&locks[i], NULL));
    for (int i = 0; i < 2 * PAIRS; i += 2) {
        OK(pthread_mutex_lock(&locks[i]));
        OK(pthread_mutex_lock(&locks[i + 1]));
        OK(pthread_mutex_unlock(&locks[i + 1]));
        OK(pthread_mutex_unlock(&locks[i]));
    }
    for (int i = 0; i < 2 * PAIRS; i++)
        OK(pthread_mutex_destroy(&locks[i]));
    free(locks);
    fprintf(stderr, "limit_edges: completed\n");
    return 0;
}
