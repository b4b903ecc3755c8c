/*
 * gate_partial.c - gate_mutex_clean.c where only one side holds the gate:
 * gate -> lock_a -> lock_b, and lock_b -> lock_a without the gate.
 *
 * The ungated side can run while the gated one holds lock_a: deadlock.
 * A gate protects only if it is held on every edge of the cycle, so the
 * inversion on lock_a and lock_b is reported (the gate is not part of the
 * cycle).
 *
 * EXPECT: lock-order-inversion lock_a lock_b
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
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return arg;
}

int main(void)
{
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
