/*
 * watchdog_abort.c - a real ABBA deadlock with watchdog=1:watchdog_abort=1:
 * the watchdog reports the deadlock, then aborts the process itself so it
 * leaves a core instead of hanging.
 *
 * Both reports must be written before the abort: the potential inversion
 * when the second thread's acquisition closed the cycle (before it
 * blocked), and the live deadlock once both threads were stuck for a
 * second.  Natively the program simply deadlocks.
 *
 * OPTIONS: watchdog=1:watchdog_abort=1
 * HANGS: 6
 * EXPECT-SIGNAL: SIGABRT
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: deadlock-detected lock_a lock_b
 * EXPECT-STDERR: watchdog_abort is set: aborting
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_b)); /* blocks until the abort */
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_a)); /* blocks until the abort */
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&both_hold_one, NULL, 2));
    pthread_t t1 = spawn_thread(thread_ab, NULL);
    pthread_t t2 = spawn_thread(thread_ba, NULL);
    join_thread(t1);
    join_thread(t2);
    return 0;
}
