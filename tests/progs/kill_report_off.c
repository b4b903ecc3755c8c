/*
 * kill_report_off.c - kill_blocked.c with OPTIONS kill_report=0: the
 * deadlock is still reported as an inversion, but the kill-time report is
 * switched off, and SIGTERM ends the process as usual.
 *
 * OPTIONS: kill_report=0
 * HANGS: 8
 * EXPECT-SIGNAL: SIGTERM
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_b));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_a));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&both_hold_one, NULL, 2));
    spawn_thread(thread_ab, NULL);
    spawn_thread(thread_ba, NULL);
    struct timespec ts = {1, 500 * 1000 * 1000}; /* the inversion report is out */
    nanosleep(&ts, NULL);
    raise(SIGTERM);
    return 0;
}
