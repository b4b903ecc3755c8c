/*
 * destroy_held.c - pthread_mutex_destroy() on a mutex the caller holds.
 *
 * glibc refuses with EBUSY (checked), so the mutex still exists and is
 * still held: the later unlock and destroy are correct.  Destroying a held
 * lock is an error (undefined behaviour in POSIX): destroy-held, once,
 * and nothing else - in particular no unlock-not-held for the unlock, as
 * the failed destroy did not end the lock's lifetime.
 *
 * EXPECT: destroy-held lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m;

int main(void)
{
    OK(pthread_mutex_init(&lock_m, NULL));
    OK(pthread_mutex_lock(&lock_m));
    CHECK_RC(pthread_mutex_destroy(&lock_m), EBUSY);
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
