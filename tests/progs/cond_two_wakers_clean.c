/*
 * cond_two_wakers_clean.c - `cond` has two wakers: waker_big signals it
 * holding big (and lock_m), waker_plain signals it holding only lock_m.
 * Then a waiter waits on cond holding big.
 *
 * The dependencies of a wake-up are the locks held at *every* wake-up
 * seen so far: after waker_big, cond -> big; waker_plain's wake-up without
 * big drops it again.  A waiter holding big is then not stuck: waker_plain
 * can wake it without big.  With cond -> big gone, the waiter's
 * big -> cond closes nothing: no report.  (cond -> lock_m stays, but the
 * wait releases lock_m, so nothing depends on it into cond.)
 *
 * Both wakers run (and are joined) before the waiter, whose single timed
 * wait times out.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int wakeups;

static void *waker_big(void *arg)
{
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_lock(&lock_m));
    wakeups++;
    OK(pthread_cond_signal(&cond)); /* cond -> big, cond -> lock_m */
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&big));
    return arg;
}

static void *waker_plain(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    wakeups++;
    OK(pthread_cond_broadcast(&cond)); /* without big: cond -> big dropped */
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&big));
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&cond, &lock_m, &deadline), ETIMEDOUT);
    CHECK(wakeups == 2);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&big));
    return arg;
}

int main(void)
{
    run_thread(waker_big, NULL);
    run_thread(waker_plain, NULL);
    run_thread(waiter, NULL);
    return 0;
}
