/*
 * trylock_no_edge_clean.c - thread 1 holds lock_a and *trylocks* lock_b;
 * thread 2 (later) takes lock_b then lock_a.
 *
 * A trylock never waits: if lock_b is busy it returns EBUSY.  So holding
 * lock_a while trying lock_b cannot take part in a deadlock, and no edge
 * lock_a -> lock_b may be recorded (lockdep's rule).  The only edge is
 * lock_b -> lock_a: no cycle, no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_a_try_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_trylock(&lock_b));
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
    run_thread(thread_a_try_b, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
