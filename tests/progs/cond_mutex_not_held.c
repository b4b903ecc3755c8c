/*
 * cond_mutex_not_held.c - pthread_cond_wait(&cond, &lock_m) by a thread
 * that does not hold lock_m (nobody does).
 *
 * POSIX makes this undefined.  With a normal mutex glibc would "unlock"
 * the unlocked mutex, really wait, and relock it on the way out: the
 * caller then holds a lock it never took, and a wait that nobody signals
 * hangs forever.  lock_m is an ERRORCHECK mutex, so glibc 2.36 (nptl
 * pthread_cond_wait.c) fails the unlock inside the wait: it registers as
 * a waiter, __pthread_mutex_unlock_usercnt() returns EPERM (not the
 * owner), it cancels its registration and returns EPERM at once, never
 * sleeping and leaving lock_m alone (checked: a trylock then succeeds).
 * The validator must report the misuse before the call: the condvar and
 * the mutex it was used with.
 *
 * EXPECT: cond-mutex-mismatch cond lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK));
    OK(pthread_mutex_init(&lock_m, &attr));
    OK(pthread_mutexattr_destroy(&attr));

    CHECK_RC(pthread_cond_wait(&cond, &lock_m), EPERM); /* not held */

    OK(pthread_mutex_trylock(&lock_m)); /* the failed wait left it unlocked */
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
