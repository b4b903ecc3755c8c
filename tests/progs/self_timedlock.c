/*
 * self_timedlock.c - a thread relocks a normal mutex it holds, with
 * pthread_mutex_timedlock() and a 50 ms timeout.
 *
 * A normal mutex does not know its owner: relocking it blocks forever with
 * pthread_mutex_lock, and here until the timeout (ETIMEDOUT, checked).
 * The validator must report the self-deadlock before the call blocks; a
 * timed lock is a blocking lock.  The failed relock leaves one hold, which
 * the single unlock releases: nothing else to report.
 *
 * EXPECT: self-deadlock lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
    CHECK_RC(pthread_mutex_timedlock(&lock_m, &deadline), ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_m));
    return 0;
}
