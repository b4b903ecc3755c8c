/*
 * unlock_below_top.c - the release of the lock just below the newest, the
 * newest moving down: thread 1 takes lock_a, lock_b, lock_c, releases
 * lock_b, then takes lock_d holding lock_a and lock_c; thread 2 (later)
 * takes lock_d then lock_c.  Thread 1 held lock_c while waiting for
 * lock_d, thread 2 the reverse: reported on lock_c and lock_d.  The loop
 * makes the second and later rounds take the fast path (validated chains);
 * a release that dropped the newest entry instead, or kept its old chain
 * key, would record lock_b -> lock_d or skip the check, and miss it.
 *
 * EXPECT: lock-order-inversion lock_c lock_d
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_d = PTHREAD_MUTEX_INITIALIZER;

static void *thread_1(void *arg)
{
    for (int i = 0; i < 3; i++) {
        OK(pthread_mutex_lock(&lock_a));
        OK(pthread_mutex_lock(&lock_b));
        OK(pthread_mutex_lock(&lock_c));
        OK(pthread_mutex_unlock(&lock_b));
        if (i == 2) { /* only now, with the releases below the top taken fast */
            OK(pthread_mutex_lock(&lock_d));
            OK(pthread_mutex_unlock(&lock_d));
        }
        OK(pthread_mutex_unlock(&lock_c));
        OK(pthread_mutex_unlock(&lock_a));
    }
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_mutex_lock(&lock_d));
    OK(pthread_mutex_lock(&lock_c));
    OK(pthread_mutex_unlock(&lock_c));
    OK(pthread_mutex_unlock(&lock_d));
    return arg;
}

int main(void)
{
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
