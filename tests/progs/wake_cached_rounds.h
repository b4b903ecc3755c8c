/*
 * wake_cached_rounds.h - the program of cond_signal_cached_cycle.c,
 * cond_signal_cached_free_clean.c, sem_post_cached_cycle.c and
 * sem_post_cached_free_clean.c: a waker wakes `obj` (a condvar with
 * WAKE_COND, else a semaphore) a thousand times holding big, each wake-up
 * after the first from the fast path (fastpath.h); with WAKE_FREE_LAST it
 * wakes it once more without big.  Later a waiter holds big while a timed
 * wait on obj times out.
 *
 * The waits record big -> obj; every wake-up made holding big records
 * obj -> big (waking obj needs big), unless one was made without it.
 */
#include "progs.h"

#include <semaphore.h>

#define WAKES 1000

static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
#ifdef WAKE_COND
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
#define WAKE() OK(pthread_cond_signal(&cond))
#else
static sem_t sem;
#define WAKE() CHECK(sem_post(&sem) == 0)
#endif
static int wakes;

static void *waker(void *arg)
{
    for (int i = 0; i < WAKES; i++) {
        OK(pthread_mutex_lock(&big));
        OK(pthread_mutex_lock(&lock_m));
        wakes++;
        WAKE(); /* with big held: obj -> big */
        OK(pthread_mutex_unlock(&lock_m));
        OK(pthread_mutex_unlock(&big));
    }
#ifdef WAKE_FREE_LAST
    OK(pthread_mutex_lock(&lock_m));
    wakes++;
    WAKE(); /* without big: waking obj does not need it */
    OK(pthread_mutex_unlock(&lock_m));
#endif
    return arg;
}

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
#ifdef WAKE_COND
    /* big -> cond; nobody signals any more, so it times out */
    CHECK_RC(pthread_cond_timedwait(&cond, &lock_m, &deadline), ETIMEDOUT);
#else
    OK(pthread_mutex_unlock(&lock_m));
    /* big -> sem; every token was taken, so it times out */
    CHECK(sem_timedwait(&sem, &deadline) == -1 && errno == ETIMEDOUT);
    OK(pthread_mutex_lock(&lock_m));
#endif
    CHECK(wakes >= WAKES);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&big));
    return arg;
}

int main(void)
{
#ifndef WAKE_COND
    CHECK(sem_init(&sem, 0, 0) == 0);
#endif
    run_thread(waker, NULL);
#ifndef WAKE_COND
    for (int i = 0; i < wakes; i++)
        CHECK(sem_wait(&sem) == 0);
#endif
    run_thread(waiter, NULL);
#ifndef WAKE_COND
    CHECK(sem_destroy(&sem) == 0);
#endif
    return 0;
}
