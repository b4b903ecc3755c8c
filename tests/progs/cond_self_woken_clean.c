/*
 * cond_self_woken_clean.c - one condvar, two kinds of wake-up (rocksdb's
 * Timer, tests/real/repro/condvar_two_wakers.c).  main holds `outer` while
 * it asks the timer thread to cancel (a broadcast of cv, outer held) and
 * then, still holding outer, waits on cv until the timer thread says the
 * task has stopped; the timer thread's broadcast holds only lock_m.
 *
 * Every wake-up seen when main starts waiting is main's own, with outer
 * held.  But a thread never ends its own wait: the wake-up main waits for
 * comes from the timer thread, which never takes outer, so the wait cannot
 * hang.  No wait-for-cycle (the rule counts only other threads' wake-ups).
 * lock_m is held from the flag to the wait, so main is waiting before the
 * timer thread can see the flag: the order is fixed.
 *
 * EXPECT: none
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
    running = 0;
    OK(pthread_cond_broadcast(&cv)); /* ends main's wait, without outer */
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

int main(void)
{
    pthread_t t = spawn_thread(timer_thread, NULL);
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(&lock_m));
    cancel_requested = 1;
    OK(pthread_cond_broadcast(&cv)); /* main's own wake-up, outer held */
    while (running)
        OK(pthread_cond_wait(&cv, &lock_m)); /* outer -> cv */
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&outer));
    join_thread(t);
    return 0;
}
