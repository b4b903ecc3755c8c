/*
 * rw_rd_wr.c - read then write, in opposite orders: thread 1 read-locks
 * rw_x then write-locks rw_y; thread 2 (later) read-locks rw_y then
 * write-locks rw_x.
 *
 * Concurrently: each thread holds one lock as a reader, and a writer must
 * wait for every reader to leave, so each waits for the other: deadlock.
 * Read holds do block writers, so rw_x -> rw_y -> rw_x is an inversion.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

int main(void)
{
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
