/*
 * watchdog_abba.c - a real ABBA deadlock (as abba_deadlock.c) with the
 * live watchdog on: OPTIONS watchdog=1.
 *
 * A barrier makes both threads hold their first lock before either asks
 * for its second, so they really block on each other for good.  Two
 * reports, both before the kill:
 *  - lock-order-inversion lock_a lock_b, when the second thread to ask
 *    closes the cycle in the graph, before it blocks (the potential
 *    deadlock, as without the watchdog);
 *  - deadlock-detected lock_a lock_b, once the two threads have been
 *    blocked on each other for a second: the watchdog's cycle of blocked
 *    threads, each holding the lock the other waits for.  Its stacks are
 *    taken from the blocked threads themselves: they must show
 *    thread_ab blocked at its lock_b line and thread_ba at its lock_a
 *    line (a stack frame `#N 0x... in thread_ab+0x.. (...c:LINE)`).  The
 *    regexes look only after the deadlock-detected header: the inversion
 *    report, printed earlier, names both functions too.
 * The process is killed after 4 s (HANGS), long enough for a 1 s watchdog
 * that checks every half second.
 *
 * OPTIONS: watchdog=1
 * HANGS: 4
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: deadlock-detected lock_a lock_b
 * EXPECT-STDERR: (?s)\[deadlock-detected\].*?#\d+ [^\n]* in thread_ab\+[^\n]*watchdog_abba\.c:{{line:ab_b}}\)
 * EXPECT-STDERR: (?s)\[deadlock-detected\].*?#\d+ [^\n]* in thread_ba\+[^\n]*watchdog_abba\.c:{{line:ba_a}}\)
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_b)); /* blocks forever @line:ab_b */
    return arg;
}

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
    pthread_t t1 = spawn_thread(thread_ab, NULL);
    pthread_t t2 = spawn_thread(thread_ba, NULL);
    join_thread(t1);
    join_thread(t2);
    return 0;
}
