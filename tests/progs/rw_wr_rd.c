/*
 * rw_wr_rd.c - write then read, in opposite orders: thread 1 write-locks
 * rw_x then read-locks rw_y; thread 2 (later) write-locks rw_y then
 * read-locks rw_x.
 *
 * Concurrently: thread 1 holds rw_x(w), thread 2 holds rw_y(w); each
 * reader then waits for the other writer.  A real deadlock on any rwlock
 * kind, so rw_x -> rw_y -> rw_x is an inversion.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_rdlock(&rw_x));
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
