/*
 * cond_two_waiters_clean.c - clean twin of cond_two_mutexes.c: two
 * threads wait on `cond` at the same time, both with lock_m1.
 *
 * Same choreography: waiter_1 holds lock_m1 until it is inside
 * pthread_cond_timedwait; waiter_2 takes lock_m1 (so waiter_1 is
 * waiting) and waits on cond with it too, times out after 20 ms, then
 * sets `done` and signals under lock_m1, ending waiter_1's wait.  Many
 * waiters with one mutex is the normal use of a condvar: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t holding;
static int done;

static void *waiter_1(void *arg)
{
    OK(pthread_mutex_lock(&lock_m1));
    pthread_barrier_wait(&holding);
    while (!done) {
        struct timespec deadline = in_ms(CLOCK_REALTIME, 5000);
        OK(pthread_cond_timedwait(&cond, &lock_m1, &deadline));
    }
    OK(pthread_mutex_unlock(&lock_m1));
    return arg;
}

static void *waiter_2(void *arg)
{
    pthread_barrier_wait(&holding);
    OK(pthread_mutex_lock(&lock_m1)); /* granted once waiter_1 waits */
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&cond, &lock_m1, &deadline), ETIMEDOUT);
    done = 1;
    OK(pthread_cond_signal(&cond));
    OK(pthread_mutex_unlock(&lock_m1));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&holding, NULL, 2));
    pthread_t w1 = spawn_thread(waiter_1, NULL);
    pthread_t w2 = spawn_thread(waiter_2, NULL);
    join_thread(w2);
    join_thread(w1);
    return 0;
}
