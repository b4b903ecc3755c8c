/*
 * rw_try_clean.c - rwlock try variants add no edge into the tried lock.
 *
 * Thread 1 write-locks rw_x and then pthread_rwlock_trywrlock()s rw_y,
 * and later holds rw_x(w) while pthread_rwlock_tryrdlock()ing rw_y.
 * Thread 2 (later) writes rw_y then rw_x.  A try never waits, so thread 1
 * cannot be part of a deadlock: the only edge is rw_y -> rw_x, no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_trywrlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_tryrdlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

int main(void)
{
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
