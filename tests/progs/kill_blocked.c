/*
 * kill_blocked.c - a hung program killed from outside, as `timeout` does in
 * CI: two threads deadlock ABBA, then main raises SIGTERM (nobody handles
 * it).  Before the default action ends the process, the kill-time report
 * lists every blocked thread with what it holds and waits for, and the
 * cycle they form; then the process dies of SIGTERM as it would have.
 *
 * HANGS: 8
 * EXPECT-SIGNAL: SIGTERM
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: blocked-at-kill lock_a lock_b
 * EXPECT-STDERR: SIGTERM ends the process; 2 threads blocked; blocked on each other: T\d -> T\d -> T\d
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
    OK(pthread_mutex_lock(&lock_b)); /* blocks forever */
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_a)); /* blocks forever */
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
