/*
 * unlock_not_held.c - unlock of an error-checking mutex that nobody holds.
 *
 * glibc refuses with EPERM (checked); on a normal mutex the same bug
 * silently corrupts the lock, so it is an error either way:
 * unlock-not-held, once.
 *
 * EXPECT: unlock-not-held lock_m
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
    OK(pthread_mutex_unlock(&lock_m));
    CHECK_RC(pthread_mutex_unlock(&lock_m), EPERM);
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
