/*
 * cond_wait_for_cycle.c - a waiter holds `big` while it waits on `cond`
 * (with lock_m); the only wake-up of `cond` ever seen happened with big
 * held (the waker takes big, then lock_m, then signals).
 *
 * The wait records big -> cond (the waiter holds big until it is woken);
 * the wake-up records cond -> big (waking cond needs big).  Run at the same
 * time, the waiter sits in pthread_cond_wait holding big and the waker
 * blocks on big before it can signal: nobody ever wakes the waiter.  The
 * condvar's own mutex, lock_m, is released during the wait and is not in
 * the waiter's held set, so the cycle is big -> cond -> big and nothing
 * else (big -> lock_m is the order both threads use).
 *
 * This run cannot hang: the waker runs first and is joined (its signal
 * finds no waiter), and the waiter does one timed wait that times out.
 * A timed wait is still a wait: a waker that never comes makes it fail,
 * so it is reported like pthread_cond_wait.
 *
 * EXPECT: wait-for-cycle big cond
 */
#include "progs.h"

static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void *waker(void *arg)
{
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_lock(&lock_m));
    ready = 1;
    OK(pthread_cond_signal(&cond)); /* with big held: cond -> big */
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&big));
    return arg;
}

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    /* big -> cond; nobody signals any more, so it times out */
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
