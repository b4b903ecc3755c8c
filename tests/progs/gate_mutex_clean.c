/*
 * gate_mutex_clean.c - an ABBA whose both sides run under one common outer
 * mutex: gate -> lock_a -> lock_b and gate -> lock_b -> lock_a.
 *
 * The two nestings can never run at the same time: whoever holds the gate
 * excludes the other, so lock_a/lock_b cannot deadlock.  Every edge of
 * the a/b cycle was recorded under the gate lock, which the validator
 * remembers per edge; a cycle all of whose edges share a held gate is not
 * reported.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&gate));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&gate));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&gate));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&gate));
    return arg;
}

int main(void)
{
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
