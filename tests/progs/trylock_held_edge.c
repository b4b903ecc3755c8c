/*
 * trylock_held_edge.c - thread 1 gets lock_a with a trylock and, holding
 * it, blocks on lock_b; thread 2 (later) takes lock_b then lock_a.
 *
 * How a lock was obtained does not matter once it is held: thread 1 waits
 * for lock_b while holding lock_a, so lock_a -> lock_b is a real edge, and
 * with thread 2's lock_b -> lock_a the two can deadlock.  Only the edge
 * *into* a trylocked lock is omitted.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_try_a_b(void *arg)
{
    OK(pthread_mutex_trylock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
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
    run_thread(thread_try_a_b, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
