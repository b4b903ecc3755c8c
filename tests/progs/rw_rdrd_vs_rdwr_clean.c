/*
 * rw_rdrd_vs_rdwr_clean.c - thread 1 reads rw_x then rw_y; thread 2
 * (later) reads rw_y then *writes* rw_x.  Default (prefer-reader) rwlocks.
 *
 * The edges form a cycle, but can it deadlock?  Thread 2 (holding
 * rw_y(r)) can wait for thread 1 to leave rw_x.  Thread 1, holding
 * rw_x(r), asks only to *read* rw_y, which nobody ever write-locks, and a
 * prefer-reader reader never waits for a merely waiting writer: thread 1
 * always gets rw_y and finishes.  No deadlock, no report.  (Lockdep's
 * rule: a cycle can deadlock only if no edge ending in a recursive read is
 * followed by an edge starting from a read hold of that lock; here
 * rw_x -> rw_y ends in a read of rw_y and rw_y -> rw_x starts from a read
 * hold of rw_y.)  Contrast rw_rdrd_vs_wrwr.c.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

int main(void)
{
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
