/*
 * cond_two_mutexes.c - one condvar, `cond`, waited on by two threads at
 * the same time with two different mutexes: waiter_1 with lock_m1,
 * waiter_2 with lock_m2.
 *
 * POSIX binds a condvar to one mutex for as long as anyone waits on it;
 * waiting with another mutex meanwhile is undefined (a signaller holding
 * lock_m1 does not exclude waiter_2's predicate check under lock_m2, so a
 * wake-up can be lost: a waiter sleeps forever).  glibc does not check it.
 *
 * Ordering without sleeps: waiter_1 holds lock_m1 from before a barrier
 * until it is inside pthread_cond_timedwait; waiter_2 passes the barrier,
 * takes lock_m1 (granted only once waiter_1 waits, the wait released it)
 * and lets it go, then waits on cond with lock_m2 while waiter_1 is still
 * waiting: the report.  waiter_2's own 20 ms wait times out; it then sets
 * `done` under lock_m1 and signals, which ends waiter_1's wait (a long
 * timeout only as a safety net).  The report names the condvar and the
 * mutex of the wait that broke the rule.
 *
 * EXPECT: cond-mutex-mismatch cond lock_m2
 */
#include "progs.h"

static pthread_mutex_t lock_m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_m2 = PTHREAD_MUTEX_INITIALIZER;
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
    OK(pthread_mutex_unlock(&lock_m1));

    OK(pthread_mutex_lock(&lock_m2));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&cond, &lock_m2, &deadline), ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_m2));

    OK(pthread_mutex_lock(&lock_m1));
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
