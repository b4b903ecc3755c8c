/*
 * destroy_static_lock_after.c - a mutex made by PTHREAD_MUTEX_INITIALIZER
 * (never passed to init) is destroyed and later locked again.
 *
 * The static initialiser made the object once; destroy ended it and
 * nothing made it again, so this is use-after-destroy like any other
 * (glibc: EINVAL, checked).  A static initialiser never used before its
 * destroy counts too (lock_never_used).
 *
 * EXPECT: use-after-destroy lock_s
 * EXPECT: use-after-destroy lock_never_used
 */
#include "progs.h"

static pthread_mutex_t lock_s = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_never_used = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&lock_s));
    OK(pthread_mutex_unlock(&lock_s));
    OK(pthread_mutex_destroy(&lock_s));
    CHECK_RC(pthread_mutex_lock(&lock_s), EINVAL);
    OK(pthread_mutex_destroy(&lock_never_used));
    CHECK_RC(pthread_mutex_trylock(&lock_never_used), EINVAL);
    return 0;
}
