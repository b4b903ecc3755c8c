/*
 * destroy_lock_after.c - a mutex locked after pthread_mutex_destroy(),
 * with no init since (a late thread of a shutdown path, in miniature).
 *
 * POSIX leaves it undefined; glibc marks the destroyed mutex and the lock
 * fails with EINVAL (checked: the validator leaves the result alone), so a
 * program that ignores the result runs unprotected.  One use-after-destroy
 * naming the mutex, where it was destroyed and where it is used.  The
 * unlock that follows (EINVAL too) is the same root cause: no second report.
 *
 * EXPECT: use-after-destroy lock_m
 * EXPECT-STDERR: destroyed at .*destroy_lock_after\.c:{{line:destroy}}\b
 * EXPECT-STDERR: uses a destroyed lock:\n.*lock_m.*\n  at .*destroy_lock_after\.c:{{line:use}}\b
 */
#include "progs.h"

static pthread_mutex_t lock_m;

int main(void)
{
    OK(pthread_mutex_init(&lock_m, NULL));
    OK(pthread_mutex_lock(&lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_destroy(&lock_m)); /* @line:destroy */
    CHECK_RC(pthread_mutex_lock(&lock_m), EINVAL); /* @line:use */
    CHECK_RC(pthread_mutex_unlock(&lock_m), EINVAL);
    return 0;
}
