/*
 * destroy_unlock_after.c - a mutex unlocked after pthread_mutex_destroy():
 * the unlock half of a critical section that outlived its lock.
 *
 * glibc answers EINVAL (checked).  It is not unlock-not-held nor
 * invalid-lock: the object is a lock the program destroyed, and the report
 * says where.
 *
 * EXPECT: use-after-destroy lock_m
 * EXPECT-STDERR: destroyed at .*destroy_unlock_after\.c:{{line:destroy}}\b
 */
#include "progs.h"

static pthread_mutex_t lock_m;

int main(void)
{
    OK(pthread_mutex_init(&lock_m, NULL));
    OK(pthread_mutex_lock(&lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_destroy(&lock_m)); /* @line:destroy */
    CHECK_RC(pthread_mutex_unlock(&lock_m), EINVAL);
    return 0;
}
