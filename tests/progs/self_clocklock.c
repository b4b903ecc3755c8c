/*
 * self_clocklock.c - a thread relocks a normal mutex it holds, with
 * pthread_mutex_clocklock(CLOCK_MONOTONIC) and a 50 ms timeout.
 *
 * Same as self_timedlock.c through the glibc 2.30 clock variant, which
 * real programs call (and which needs its own wrapper): ETIMEDOUT
 * natively, one self-deadlock report under the validator.
 *
 * EXPECT: self-deadlock lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_MONOTONIC, 50);
    CHECK_RC(pthread_mutex_clocklock(&lock_m, CLOCK_MONOTONIC, &deadline), ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_m));
    return 0;
}
