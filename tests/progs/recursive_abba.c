/*
 * recursive_abba.c - ABBA with two recursive mutexes; thread_ab also
 * relocks rec_a before taking rec_b.
 *
 * Recursion only lets the *owner* re-enter; another thread still blocks,
 * so opposite orders deadlock as with normal mutexes.  The relock of rec_a
 * adds no edge (rec_a -> rec_a would be meaningless), the cycle is
 * rec_a -> rec_b -> rec_a.
 *
 * EXPECT: lock-order-inversion rec_a rec_b
 */
#include "progs.h"

static pthread_mutex_t rec_a, rec_b;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&rec_a));
    OK(pthread_mutex_lock(&rec_a));
    OK(pthread_mutex_lock(&rec_b));
    OK(pthread_mutex_unlock(&rec_b));
    OK(pthread_mutex_unlock(&rec_a));
    OK(pthread_mutex_unlock(&rec_a));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&rec_b));
    OK(pthread_mutex_lock(&rec_a));
    OK(pthread_mutex_unlock(&rec_a));
    OK(pthread_mutex_unlock(&rec_b));
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
    OK(pthread_mutex_init(&rec_a, &attr));
    OK(pthread_mutex_init(&rec_b, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    OK(pthread_mutex_destroy(&rec_a));
    OK(pthread_mutex_destroy(&rec_b));
    return 0;
}
