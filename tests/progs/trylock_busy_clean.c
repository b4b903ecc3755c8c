/*
 * trylock_busy_clean.c - a trylock that fails (EBUSY) is not a hold.
 *
 * main holds lock_b; a thread takes lock_a, trylocks lock_b (EBUSY,
 * checked), releases lock_a and exits.  Then main takes lock_b -> lock_a.
 * The failed trylock acquired nothing: the thread exits holding nothing
 * (no exit-holding), main's unlock of lock_b is its own (no
 * unlock-not-owner), and there is no edge into lock_b, so lock_b -> lock_a
 * closes no cycle.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_a_try_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    CHECK_RC(pthread_mutex_trylock(&lock_b), EBUSY);
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&lock_b));
    run_thread(thread_a_try_b, NULL);
    OK(pthread_mutex_unlock(&lock_b));

    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return 0;
}
