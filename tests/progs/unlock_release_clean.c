/*
 * unlock_release_clean.c - a released lock stops being "held": thread 1
 * takes lock_a, lock_b, releases lock_b, then takes lock_c; thread 2
 * (later) takes lock_c then lock_b.
 *
 * Edges: lock_a -> lock_b, lock_a -> lock_c, lock_c -> lock_b.  lock_b and
 * lock_c were never held together by thread 1, so there is no cycle.  A
 * validator that forgot the release would add lock_b -> lock_c and report
 * a false inversion.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_lock(&lock_c));
    OK(pthread_mutex_unlock(&lock_c));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_mutex_lock(&lock_c));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_c));
    return arg;
}

int main(void)
{
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
