/*
 * unlock_out_of_order.c - out-of-order release: thread 1 takes lock_a,
 * lock_b, releases lock_a (not the most recent), then takes lock_c while
 * still holding lock_b; thread 2 (later) takes lock_c then lock_b.
 *
 * Thread 1 holds lock_b while waiting for lock_c, thread 2 the reverse: a
 * real deadlock, reported on lock_b and lock_c.  A validator that popped
 * the top of its held stack instead of removing lock_a would think thread
 * 1 still held lock_a, record lock_a -> lock_c instead, and miss it.
 *
 * EXPECT: lock-order-inversion lock_b lock_c
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_lock(&lock_c));
    OK(pthread_mutex_unlock(&lock_c));
    OK(pthread_mutex_unlock(&lock_b));
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
