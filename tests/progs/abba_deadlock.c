/*
 * abba_deadlock.c - a real ABBA deadlock: a barrier makes both threads
 * hold their first lock before either takes its second.
 *
 * Whichever thread asks for its second lock last closes the cycle
 * lock_a -> lock_b -> lock_a; the validator must report it *before* the
 * thread blocks, so the report is in the JSON file although the process
 * then hangs for good and is killed.  One report only: the first thread to
 * ask adds an edge that closes nothing.
 *
 * HANGS: 3
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

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
    pthread_t t1 = spawn_thread(thread_ab, NULL);
    pthread_t t2 = spawn_thread(thread_ba, NULL);
    join_thread(t1);
    join_thread(t2);
    return 0;
}
