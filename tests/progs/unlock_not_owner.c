/*
 * unlock_not_owner.c - a thread unlocks an error-checking mutex that main
 * holds.
 *
 * glibc refuses with EPERM (checked), so main still holds it and unlocks
 * it itself afterwards, correctly.  Unlocking another thread's mutex is
 * an error (undefined for normal mutexes): unlock-not-owner, once.  The
 * helper thread holds nothing when it exits.
 *
 * EXPECT: unlock-not-owner lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m;

static void *intruder(void *arg)
{
    CHECK_RC(pthread_mutex_unlock(&lock_m), EPERM);
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK));
    OK(pthread_mutex_init(&lock_m, &attr));
    OK(pthread_mutexattr_destroy(&attr));

    OK(pthread_mutex_lock(&lock_m));
    run_thread(intruder, NULL);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
