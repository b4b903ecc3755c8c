/*
 * exit_past_deadlock.c - two threads really deadlock (ABBA, each holding
 * its first lock when it takes the second), and main returns from main()
 * anyway.  The inversion is reported when the second order is recorded,
 * before that thread blocks; at exit the two threads are still blocked on
 * each other 200 ms later: deadlock-detected "when the process exited".
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: deadlock-detected lock_a lock_b
 * EXPECT-STDERR: 2 threads blocked on each other when the process exited
 */
#include "progs.h"

#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static atomic_int holding;

static void take_both(pthread_mutex_t *first, pthread_mutex_t *second)
{
    OK(pthread_mutex_lock(first));
    atomic_fetch_add(&holding, 1);
    while (atomic_load(&holding) < 2)
        sched_yield();
    OK(pthread_mutex_lock(second)); /* never returns */
}

static void *ab(void *arg)
{
    take_both(&lock_a, &lock_b);
    return arg;
}

static void *ba(void *arg)
{
    take_both(&lock_b, &lock_a);
    return arg;
}

int main(void)
{
    spawn_thread(ab, NULL);
    spawn_thread(ba, NULL);
    while (atomic_load(&holding) < 2)
        sched_yield();
    struct timespec ts = {0, 100 * 1000 * 1000}; /* both block */
    nanosleep(&ts, NULL);
    return 0;
}
