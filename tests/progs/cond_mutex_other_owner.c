/*
 * cond_mutex_other_owner.c - pthread_cond_timedwait(&cond, &lock_m) by a
 * thread while *another* thread holds lock_m.
 *
 * The caller does not hold the mutex it passes: undefined by POSIX.  With
 * a normal mutex glibc would release the other thread's lock behind its
 * back (and then relock it for the caller).  lock_m is an ERRORCHECK
 * mutex, so glibc 2.36's unlock inside the wait fails with EPERM (the
 * owner is another thread) and the wait returns EPERM at once without
 * sleeping; the owner still holds lock_m and its unlock succeeds.  The
 * validator must report the misuse before the call, naming the condvar
 * and the mutex.  The owner parks on a barrier holding lock_m while the
 * other thread makes the call, then releases it: no other report.
 *
 * EXPECT: cond-mutex-mismatch cond lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t owner_holds, call_done;

static void *owner(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    pthread_barrier_wait(&owner_holds);
    pthread_barrier_wait(&call_done);
    OK(pthread_mutex_unlock(&lock_m)); /* still the owner */
    return arg;
}

static void *caller(void *arg)
{
    pthread_barrier_wait(&owner_holds);
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&cond, &lock_m, &deadline), EPERM);
    CHECK_RC(pthread_mutex_trylock(&lock_m), EBUSY); /* the owner's, untouched */
    pthread_barrier_wait(&call_done);
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK));
    OK(pthread_mutex_init(&lock_m, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    OK(pthread_barrier_init(&owner_holds, NULL, 2));
    OK(pthread_barrier_init(&call_done, NULL, 2));

    pthread_t o = spawn_thread(owner, NULL);
    pthread_t c = spawn_thread(caller, NULL);
    join_thread(c);
    join_thread(o);
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
