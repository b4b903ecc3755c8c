/*
 * sem_wait_for_cycle.c - a thread holds lock_l while it waits on the
 * semaphore sem_s; the thread that posts sem_s holds lock_l when it posts.
 *
 * The wait records lock_l -> sem_s, the post (the only one seen) records
 * sem_s -> lock_l: a cycle.  Run at the same time, the waiter sleeps in
 * sem_wait holding lock_l and the poster blocks on lock_l before it can
 * post: a deadlock.  Here the waiter runs first and its sem_timedwait
 * (20 ms, count 0) times out; the poster runs after it has been joined,
 * and its post closes the cycle.  Reported although this run got through.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK(sem_timedwait(&sem_s, &deadline) == -1 && errno == ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

static void *poster(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_post(&sem_s) == 0); /* sem_s -> lock_l */
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 0) == 0);
    run_thread(waiter, NULL);
    run_thread(poster, NULL);
    int value;
    CHECK(sem_getvalue(&sem_s, &value) == 0 && value == 1);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
