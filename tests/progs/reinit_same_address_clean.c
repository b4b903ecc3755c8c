/*
 * reinit_same_address_clean.c - lock_a and lock_b are initialised, locked
 * a -> b, destroyed; then initialised again at the same addresses and
 * locked b -> a.
 *
 * A lock's identity is one lifetime (init to destroy): the a -> b edge
 * belongs to locks that no longer exist, so b -> a closes no cycle.  The
 * second lifetime is initialised at other call sites (phase2), so its
 * classes differ too; with the same init sites see
 * reinit_same_site_class.c.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_a, lock_b;

static __attribute__((noinline)) void phase1(void)
{
    OK(pthread_mutex_init(&lock_a, NULL));
    OK(pthread_mutex_init(&lock_b, NULL));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_destroy(&lock_a));
    OK(pthread_mutex_destroy(&lock_b));
}

static __attribute__((noinline)) void phase2(void)
{
    OK(pthread_mutex_init(&lock_a, NULL));
    OK(pthread_mutex_init(&lock_b, NULL));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_destroy(&lock_a));
    OK(pthread_mutex_destroy(&lock_b));
}

int main(void)
{
    phase1();
    phase2();
    return 0;
}
