/*
 * self_errorcheck_static.c - like self_errorcheck.c, but the mutex is
 * PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP and never passed to an init call.
 *
 * The validator sees no pthread_mutex_init(), so it must learn the type
 * from the mutex itself (__data.__kind); the relock returns EDEADLK and is
 * reported once as self-deadlock, under the static name.
 *
 * EXPECT: self-deadlock lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;

int main(void)
{
    OK(pthread_mutex_lock(&lock_m));
    CHECK_RC(pthread_mutex_lock(&lock_m), EDEADLK);
    OK(pthread_mutex_unlock(&lock_m));
    return 0;
}
