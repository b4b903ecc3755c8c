/*
 * checking_off_clean.c - an ABBA whose second half runs between
 * uld_checking(0) and uld_checking(1) (nested twice), then a third thread
 * takes lock_a -> lock_b again with checking back on.
 *
 * Locks taken while checking is off are not tracked (include/ulockdep.h),
 * so lock_b -> lock_a is never recorded and nothing is reported; the
 * disables nest, so the inner uld_checking(1) must not turn checking back
 * on early.  The last thread proves checking resumed without leftovers:
 * its lock_a -> lock_b is the edge already known.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *thread_ba_unchecked(void *arg)
{
    uld_checking(0);
    uld_checking(0);
    uld_checking(1); /* still off: one disable left */
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    uld_checking(1);
    return arg;
}

int main(void)
{
    run_thread(thread_ab, NULL);
    run_thread(thread_ba_unchecked, NULL);
    run_thread(thread_ab, NULL);
    return 0;
}
