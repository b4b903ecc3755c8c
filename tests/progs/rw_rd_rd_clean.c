/*
 * rw_rd_rd_clean.c - two default rwlocks read-locked in opposite orders:
 * thread 1 reads rw_x then rw_y, thread 2 (later) reads rw_y then rw_x.
 *
 * Nobody ever write-locks them, and on glibc's default (prefer-reader)
 * kind a reader only ever waits for a writer that holds the lock.  Readers
 * never block readers, so this "cycle" can never deadlock and must not be
 * reported (lockdep: recursive-read edges do not close a cycle).
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *read_xy(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *read_yx(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

int main(void)
{
    run_thread(read_xy, NULL);
    run_thread(read_yx, NULL);
    return 0;
}
