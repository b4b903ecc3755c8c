/*
 * clocklock_edge.c - as timedlock_edge.c, with pthread_mutex_clocklock
 * (CLOCK_MONOTONIC) for both of thread 1's acquisitions.
 *
 * The clock variant blocks like the timed one, so lock_a -> lock_b is an
 * edge and thread 2's lock_b -> lock_a closes the cycle.  Proves the
 * clocklock wrapper is reached and treated as blocking.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_a_clock_b(void *arg)
{
    struct timespec deadline = in_ms(CLOCK_MONOTONIC, 5000);
    OK(pthread_mutex_clocklock(&lock_a, CLOCK_MONOTONIC, &deadline));
    OK(pthread_mutex_clocklock(&lock_b, CLOCK_MONOTONIC, &deadline));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return arg;
}

int main(void)
{
    run_thread(thread_a_clock_b, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
