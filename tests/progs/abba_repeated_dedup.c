/*
 * abba_repeated_dedup.c - the same ABBA repeated 100 times, from several
 * threads.
 *
 * Every repetition closes the same cycle lock_a -> lock_b -> lock_a.
 * Reports are deduplicated: one problem, one report, however often the
 * code runs (a CI log with 100 copies helps nobody).
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *abba_loop(void *arg)
{
    for (int i = 0; i < 25; i++) {
        OK(pthread_mutex_lock(&lock_a));
        OK(pthread_mutex_lock(&lock_b));
        OK(pthread_mutex_unlock(&lock_b));
        OK(pthread_mutex_unlock(&lock_a));
        OK(pthread_mutex_lock(&lock_b));
        OK(pthread_mutex_lock(&lock_a));
        OK(pthread_mutex_unlock(&lock_a));
        OK(pthread_mutex_unlock(&lock_b));
    }
    return arg;
}

int main(void)
{
    for (int i = 0; i < 4; i++)
        run_thread(abba_loop, NULL);
    return 0;
}
