/*
 * rw_rdrd_vs_wrwr.c - thread 1 reads rw_x then rw_y; thread 2 (later)
 * writes rw_y then rw_x.
 *
 * Concurrently: thread 1 holds rw_x(r) and waits to read rw_y, which
 * thread 2 holds for writing; thread 2 waits to write rw_x, which thread
 * 1 holds for reading.  Deadlock, although thread 1 only reads: an
 * inversion on rw_x and rw_y.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_rdlock(&rw_y));
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
