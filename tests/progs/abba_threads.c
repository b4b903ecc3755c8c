/*
 * abba_threads.c - the basic ABBA: two threads that never run at the same
 * time take lock_a and lock_b in opposite orders.
 *
 * thread_ab records lock_a -> lock_b; after it has been joined, thread_ba
 * takes lock_b and then lock_a, closing the cycle.  Run concurrently the
 * two could deadlock, so the validator must report it although this run
 * never blocks: that is the point of a lock-order validator.  The report
 * comes from thread_ba's acquisition of lock_a, and the human report on
 * stderr shows both edges with their symbolised stacks (function names,
 * file:line of the acquisitions, hence -g).
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: possible circular locking dependency detected
 * EXPECT-STDERR: thread_ab
 * EXPECT-STDERR: thread_ba
 * EXPECT-STDERR: abba_threads\.c:{{line:ab_b}}\b
 * EXPECT-STDERR: abba_threads\.c:{{line:ba_a}}\b
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b)); /* @line:ab_b */
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* @line:ba_a */
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return arg;
}

int main(void)
{
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
