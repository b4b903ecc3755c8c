/*
 * cond_self_woken_cycle.c - twin of cond_self_woken_clean.c where the
 * timer thread takes `outer` before its broadcast that ends main's wait.
 *
 * main waits on cv holding outer; the only other thread that wakes cv
 * needs outer first: a real deadlock (main never releases outer, the
 * waker never gets it).  When main starts waiting, every wake-up seen is
 * its own, which proves nothing, so nothing is reported yet; the timer
 * thread's wake-up, outer held, is the evidence, and it closes
 * outer -> cv -> outer then.  Here main's wait is a timed one: it times
 * out, main releases outer and the timer thread gets through.
 *
 * EXPECT: wait-for-cycle outer cv
 */
#include "progs.h"

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int cancel_requested, running = 1;

static void *timer_thread(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    while (!cancel_requested)
        OK(pthread_cond_wait(&cv, &lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_lock(&outer)); /* blocks until main gives up */
    OK(pthread_mutex_lock(&lock_m));
    running = 0;
    OK(pthread_cond_broadcast(&cv)); /* cv -> outer, from another thread */
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&outer));
    return arg;
}

int main(void)
{
    pthread_t t = spawn_thread(timer_thread, NULL);
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(&lock_m));
    cancel_requested = 1;
    OK(pthread_cond_broadcast(&cv)); /* main's own wake-up, outer held */
    struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
    int rc = 0;
    while (running && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&cv, &lock_m, &deadline); /* outer -> cv */
    CHECK(rc == ETIMEDOUT && running);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&outer));
    join_thread(t);
    CHECK(!running);
    return 0;
}
