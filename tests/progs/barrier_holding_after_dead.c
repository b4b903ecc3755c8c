/*
 * barrier_holding_after_dead.c - as barrier_holding.c, but the participant
 * first works with eight short-lived mutexes (each created, locked and
 * destroyed) before it takes table_lock on its way to the barrier.  The
 * locks a thread took since its last barrier pass are kept in a small
 * list; locks destroyed since must leave room for table_lock, or the
 * wait-for cycle is missed.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#define EXPECTED_ROWS 29
#include "barrier_holding.h"

#include <stdlib.h>

/* eight short-lived mutexes: each created, locked and destroyed */
static void loader_work(int *rows)
{
    for (int i = 0; i < 8; i++) {
        pthread_mutex_t *m = malloc(sizeof(*m));
        CHECK(m != NULL);
        OK(pthread_mutex_init(m, NULL));
        OK(pthread_mutex_lock(m));
        *rows += i;
        OK(pthread_mutex_unlock(m));
        OK(pthread_mutex_destroy(m));
        free(m);
    }
}
