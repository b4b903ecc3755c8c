/*
 * recursive_relock_clean.c - a PTHREAD_MUTEX_RECURSIVE mutex (initialised
 * with an attribute) relocked three times by its owner, also through
 * pthread_mutex_trylock and pthread_mutex_timedlock.
 *
 * Re-entering a recursive mutex you own never blocks: no self-deadlock.
 * The count must be tracked: three unlocks release it, and a thread that
 * then exits holds nothing (no exit-holding).
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t rec;

static void *owner(void *arg)
{
    OK(pthread_mutex_lock(&rec));
    OK(pthread_mutex_trylock(&rec));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 1000);
    OK(pthread_mutex_timedlock(&rec, &deadline));
    OK(pthread_mutex_unlock(&rec));
    OK(pthread_mutex_unlock(&rec));
    OK(pthread_mutex_unlock(&rec));
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
    OK(pthread_mutex_init(&rec, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    run_thread(owner, NULL);
    OK(pthread_mutex_destroy(&rec));
    return 0;
}
