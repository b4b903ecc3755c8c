/*
 * cond_wait_for_clean.c - clean twin of cond_wait_for_cycle.c: the waker
 * signals `cond` holding only lock_m; it takes `big` afterwards, not
 * around the signal.
 *
 * The waiter still waits on cond holding big (big -> cond), but the
 * wake-up does not need big: run at the same time, the waker gets lock_m
 * (released by the wait), signals, and only then blocks on big until the
 * waiter has released it.  No cond -> big, no cycle, no report.  The
 * waker's later big (after lock_m was released) adds no edge either.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void *waker(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    ready = 1;
    OK(pthread_cond_signal(&cond)); /* big not held */
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_unlock(&big));
    return arg;
}

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&cond, &lock_m, &deadline), ETIMEDOUT);
    CHECK(ready == 1);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&big));
    return arg;
}

int main(void)
{
    run_thread(waker, NULL);
    run_thread(waiter, NULL);
    return 0;
}
