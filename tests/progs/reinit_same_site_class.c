/*
 * reinit_same_site_class.c - as reinit_same_address_clean.c, but both
 * lifetimes are initialised by the same functions init_a() and init_b().
 *
 * Instance level: a1 -> b1, then (after destroy) b2 -> a2, no cycle, so no
 * lock-order-inversion.  Class level: the class of a lock initialised by
 * pthread_mutex_init is its init call site, so the classes init_a:LINE and
 * init_b:LINE have edges both ways: the code takes "an A" then "a B" in
 * one place and the reverse in another, which deadlocks as soon as the
 * two paths meet the same pair.  That is a class-order-inversion: a
 * warning (exit 0), named by the two classes.
 *
 * EXPECT: class-order-inversion init_a:* init_b:*
 */
#include "progs.h"

static pthread_mutex_t lock_a, lock_b;

static __attribute__((noinline)) void init_a(void)
{
    OK(pthread_mutex_init(&lock_a, NULL));
}

static __attribute__((noinline)) void init_b(void)
{
    OK(pthread_mutex_init(&lock_b, NULL));
}

static void nest(pthread_mutex_t *first, pthread_mutex_t *second)
{
    OK(pthread_mutex_lock(first));
    OK(pthread_mutex_lock(second));
    OK(pthread_mutex_unlock(second));
    OK(pthread_mutex_unlock(first));
}

int main(void)
{
    init_a();
    init_b();
    nest(&lock_a, &lock_b);
    OK(pthread_mutex_destroy(&lock_a));
    OK(pthread_mutex_destroy(&lock_b));

    init_a();
    init_b();
    nest(&lock_b, &lock_a);
    OK(pthread_mutex_destroy(&lock_a));
    OK(pthread_mutex_destroy(&lock_b));
    return 0;
}
