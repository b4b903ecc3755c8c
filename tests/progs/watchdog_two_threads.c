/*
 * watchdog_two_threads.c - an ABBA deadlock between the main thread and
 * the only other thread: every thread of the process is blocked, none is
 * left idle.  The watchdog must still see the cycle (it once needed an
 * idle third thread to notice anything).
 *
 * OPTIONS: watchdog=1
 * HANGS: 4
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: deadlock-detected lock_a lock_b
 * EXPECT-STDERR: (?s)\[deadlock-detected\].*?#\d+ [^\n]* in main\+[^\n]*watchdog_two_threads\.c:{{line:main_b}}\)
 * EXPECT-STDERR: (?s)\[deadlock-detected\].*?#\d+ [^\n]* in thread_ba\+[^\n]*watchdog_two_threads\.c:{{line:ba_a}}\)
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_a)); /* blocks forever @line:ba_a */
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&both_hold_one, NULL, 2));
    pthread_t t = spawn_thread(thread_ba, NULL);
    OK(pthread_mutex_lock(&lock_a));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_b)); /* blocks forever @line:main_b */
    join_thread(t);
    return 0;
}
