/*
 * self_errorcheck.c - an error-checking mutex (pthread_mutex_init with
 * PTHREAD_MUTEX_ERRORCHECK) relocked by its owner.
 *
 * glibc returns EDEADLK instead of hanging, but the program asked for a
 * lock it already holds: a bug that a normal mutex turns into a hang, so
 * it is reported as self-deadlock (docs/reports.md: "EDEADLK on
 * error-checking mutexes too").  The failed call takes no second hold, so
 * the one unlock is correct.
 *
 * EXPECT: self-deadlock lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m;

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK));
    OK(pthread_mutex_init(&lock_m, &attr));
    OK(pthread_mutexattr_destroy(&attr));

    OK(pthread_mutex_lock(&lock_m));
    CHECK_RC(pthread_mutex_lock(&lock_m), EDEADLK);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
