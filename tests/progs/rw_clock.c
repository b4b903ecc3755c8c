/*
 * rw_clock.c - rw_rd_wr.c with thread 1 using pthread_rwlock_clockrdlock
 * and pthread_rwlock_clockwrlock (CLOCK_MONOTONIC; they succeed at once).
 *
 * Thread 1 records rw_x(r) -> rw_y(w), thread 2 rw_y(r) -> rw_x(w): each
 * writer waits for the other thread to stop reading, a real deadlock.
 * Proves the clock wrappers are reached and treated as blocking.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    struct timespec deadline = in_ms(CLOCK_MONOTONIC, 5000);
    OK(pthread_rwlock_clockrdlock(&rw_x, CLOCK_MONOTONIC, &deadline));
    OK(pthread_rwlock_clockwrlock(&rw_y, CLOCK_MONOTONIC, &deadline));
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
