/*
 * timeout_cond_timer_clean.c - a timer thread (MariaDB's thr_timer.c
 * timer_handler) sleeps in pthread_cond_timedwait(COND_timer, LOCK_timer)
 * until the next expiry: the timeout is its schedule.  The main thread
 * (thr_timer_settime) takes LOCK_timer to add timers and signals
 * COND_timer.  When a wait expires, the timer thread takes LOCK_timer back
 * before it returns, and the main thread is often blocked on LOCK_timer at
 * that moment.  That lock was free for the whole wait, so no deadlock was
 * broken: nothing the main thread waits for was held by the waiter while
 * it waited.  No report (timeout_cond_broke_cycle.c is the true twin).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t LOCK_timer = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t COND_timer = PTHREAD_COND_INITIALIZER;
static atomic_int stop;
static int timers, expiries;

static void spin_us(long us)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void *timer_handler(void *arg)
{
    OK(pthread_mutex_lock(&LOCK_timer));
    while (!atomic_load(&stop)) {
        struct timespec abstime;
        clock_gettime(CLOCK_REALTIME, &abstime);
        abstime.tv_nsec += 1000 * 1000; /* the next timer expires in 1 ms */
        if (abstime.tv_nsec >= 1000000000L) {
            abstime.tv_sec++;
            abstime.tv_nsec -= 1000000000L;
        }
        int r = pthread_cond_timedwait(&COND_timer, &LOCK_timer, &abstime);
        CHECK(r == 0 || r == ETIMEDOUT);
        if (r == ETIMEDOUT) {
            expiries++;
            spin_us(50); /* process_timers() under LOCK_timer */
        }
    }
    OK(pthread_mutex_unlock(&LOCK_timer));
    return arg;
}

int main(void)
{
    pthread_t t = spawn_thread(timer_handler, NULL);
    for (int i = 0; i < 20000; i++) {
        OK(pthread_mutex_lock(&LOCK_timer)); /* thr_timer_settime() */
        timers++;
        if (i % 1000 == 0)
            OK(pthread_cond_signal(&COND_timer)); /* an earlier expiry */
        OK(pthread_mutex_unlock(&LOCK_timer));
        spin_us(5);
    }
    atomic_store(&stop, 1);
    OK(pthread_mutex_lock(&LOCK_timer));
    OK(pthread_cond_signal(&COND_timer));
    OK(pthread_mutex_unlock(&LOCK_timer));
    OK(pthread_join(t, NULL));
    printf("%d timers set, %s\n", timers, expiries > 0 ? "timer expiries seen" : "no expiry");
    return 0;
}
