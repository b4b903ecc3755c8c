/*
 * rw_timed.c - rw_wr_rd.c with thread 1 using pthread_rwlock_timedwrlock
 * and pthread_rwlock_timedrdlock (they succeed at once).
 *
 * Timed rwlock calls block until their deadline, so they record edges
 * like the plain calls: thread 1 records rw_x(w) -> rw_y(r), thread 2
 * rw_y(w) -> rw_x(r), a real write/read deadlock.  Proves the timed
 * wrappers are reached and treated as blocking, with the right mode.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    struct timespec deadline = in_ms(CLOCK_REALTIME, 5000);
    OK(pthread_rwlock_timedwrlock(&rw_x, &deadline));
    OK(pthread_rwlock_timedrdlock(&rw_y, &deadline));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_rdlock(&rw_x));
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
