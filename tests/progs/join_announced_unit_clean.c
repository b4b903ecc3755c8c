/*
 * join_announced_unit_clean.c - Knot DNS's thread units (dthreads.c).  An
 * idle worker holds the unit's notify_mx, reports its state change
 * (signals `report` under report_mx) and sleeps on `notify`, taking
 * notify_mx back when woken.  Told to stop, it leaves the loop, reports
 * once more under report_mx and marks itself joinable (under its own
 * thread_mx); after that it takes none of these locks.  dt_join() holds
 * report_mx and the unit lock, and pthread_join()s only a worker it saw
 * joinable, having waited for its report.  The worker's earlier
 * acquisitions of notify_mx all happened before that report, so the join
 * cannot wait for them.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <time.h>
#include <unistd.h>

static pthread_mutex_t notify_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t report_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t unit_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t thread_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t notify = PTHREAD_COND_INITIALIZER;
static pthread_cond_t report = PTHREAD_COND_INITIALIZER;
static int dead, idle, joinable;

static void signalize_change(void)
{
    OK(pthread_mutex_lock(&report_mx));
    OK(pthread_cond_signal(&report));
    OK(pthread_mutex_unlock(&report_mx));
}

static void *thread_ep(void *arg)
{
    for (;;) {
        OK(pthread_mutex_lock(&thread_mx));
        int stop = dead;
        OK(pthread_mutex_unlock(&thread_mx));
        if (stop)
            break;
        OK(pthread_mutex_lock(&notify_mx)); /* runnable done: go idle */
        OK(pthread_mutex_lock(&thread_mx));
        idle = 1;
        stop = dead;
        OK(pthread_mutex_unlock(&thread_mx));
        signalize_change();
        if (!stop)
            OK(pthread_cond_wait(&notify, &notify_mx));
        OK(pthread_mutex_unlock(&notify_mx));
    }
    signalize_change();
    OK(pthread_mutex_lock(&thread_mx));
    joinable = 1; /* nothing locked after this */
    OK(pthread_mutex_unlock(&thread_mx));
    usleep(100 * 1000); /* rcu_unregister_thread(): still running when joined */
    return arg;
}

static int state(int *v)
{
    OK(pthread_mutex_lock(&thread_mx));
    int r = *v;
    OK(pthread_mutex_unlock(&thread_mx));
    return r;
}

int main(void)
{
    pthread_t t = spawn_thread(thread_ep, NULL);
    while (!state(&idle))
        usleep(1000);
    OK(pthread_mutex_lock(&notify_mx)); /* dt_stop() */
    OK(pthread_mutex_lock(&unit_mx));
    OK(pthread_mutex_lock(&thread_mx));
    dead = 1;
    OK(pthread_mutex_unlock(&thread_mx));
    OK(pthread_mutex_unlock(&unit_mx));
    OK(pthread_cond_broadcast(&notify));
    OK(pthread_mutex_unlock(&notify_mx));
    for (;;) { /* dt_join() */
        OK(pthread_mutex_lock(&report_mx));
        OK(pthread_mutex_lock(&unit_mx));
        int done = state(&joinable);
        if (done)
            OK(pthread_join(t, NULL));
        OK(pthread_mutex_unlock(&unit_mx));
        if (done) {
            OK(pthread_mutex_unlock(&report_mx));
            break;
        }
        struct timespec ts; /* knot waits untimed; the timeout covers its lost-wakeup window */
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 5 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int r = pthread_cond_timedwait(&report, &report_mx, &ts);
        CHECK(r == 0 || r == ETIMEDOUT);
        OK(pthread_mutex_unlock(&report_mx));
    }
    printf("joined\n");
    return 0;
}
