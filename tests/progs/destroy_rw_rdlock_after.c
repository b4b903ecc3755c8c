/*
 * destroy_rw_rdlock_after.c - a rwlock read-locked after
 * pthread_rwlock_destroy(), then unlocked.
 *
 * glibc's rwlock destroy changes nothing in the object: the rdlock and the
 * unlock succeed (checked), so only the validator can tell.  One
 * use-after-destroy for the rdlock; the unlock is the same root cause.
 *
 * EXPECT: use-after-destroy lock_rw
 * EXPECT-STDERR: lock of a rwlock after pthread_rwlock_destroy
 */
#include "progs.h"

static pthread_rwlock_t lock_rw;

int main(void)
{
    OK(pthread_rwlock_init(&lock_rw, NULL));
    OK(pthread_rwlock_wrlock(&lock_rw));
    OK(pthread_rwlock_unlock(&lock_rw));
    OK(pthread_rwlock_destroy(&lock_rw));
    OK(pthread_rwlock_rdlock(&lock_rw));
    OK(pthread_rwlock_unlock(&lock_rw));
    return 0;
}
