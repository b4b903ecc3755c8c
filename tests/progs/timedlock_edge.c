/*
 * timedlock_edge.c - thread 1 holds lock_a and takes lock_b with
 * pthread_mutex_timedlock (succeeds at once); thread 2 (later) takes
 * lock_b then lock_a.
 *
 * A timed lock blocks until its deadline: run concurrently, both threads
 * would wait for each other (thread 1 at least until the timeout, and a
 * program that retries on ETIMEDOUT forever).  So it records
 * lock_a -> lock_b like pthread_mutex_lock, and thread 2 closes the cycle.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_a_timed_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 5000);
    OK(pthread_mutex_timedlock(&lock_b, &deadline));
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
    run_thread(thread_a_timed_b, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
