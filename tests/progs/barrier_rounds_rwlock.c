/*
 * barrier_rounds_rwlock.c - barrier_rounds_mutex.c with an rwlock's write
 * lock, an acquisition that may fail (EDEADLK): what it needed to arrive
 * is noted only once the lock is taken, also when its memo entry is taken
 * back.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#include <pthread.h>
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
#define TAKE pthread_rwlock_wrlock
#define RELEASE pthread_rwlock_unlock
#define ROUNDS 20
#define EXPECTED_ROWS ROUNDS
#include "barrier_holding.h"

static void loader_work(int *rows)
{
    (void)rows;
}
