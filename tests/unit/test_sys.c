/* sys.c: the validator's own mutex (spins briefly, then sleeps on a futex). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "base/internal.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

enum { THREADS = 4, ROUNDS = 100000 };

static struct uld_mutex m;
static long counter;
static _Atomic int inside, overlap;

static void *increment(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        uld_mutex_lock(&m);
        if (atomic_fetch_add(&inside, 1) != 0)
            atomic_store(&overlap, 1);
        long v = counter;
        if (i % 1000 == 0)
            sched_yield(); /* the holder off the CPU: waiters spin out and sleep */
        counter = v + 1;
        atomic_fetch_sub(&inside, 1);
        uld_mutex_unlock(&m);
    }
    return NULL;
}

/* Mutual exclusion under contention, through both the spin and the sleep. */
static void test_exclusive_under_contention(void **state)
{
    (void)state;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, increment, NULL), 0);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(counter, (long)THREADS * ROUNDS);
    assert_int_equal(atomic_load(&overlap), 0);
    assert_int_equal(atomic_load(&m.state), 0);
}

static _Atomic int waiter_done;

static void *take_once(void *arg)
{
    (void)arg;
    uld_mutex_lock(&m);
    atomic_fetch_add(&waiter_done, 1);
    uld_mutex_unlock(&m);
    return NULL;
}

/* Waiters that gave up spinning (the holder keeps it 50 ms or more) are all woken. */
static void test_sleepers_all_woken(void **state)
{
    (void)state;
    uld_mutex_lock(&m);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, take_once, NULL), 0);
    struct timespec ms50 = {0, 50 * 1000 * 1000}, ms1 = {0, 1000 * 1000};
    nanosleep(&ms50, NULL);
    for (int i = 0; i < 5000 && atomic_load(&m.state) != 2; i++)
        nanosleep(&ms1, NULL); /* a loaded machine: until one has gone to sleep */
    assert_int_equal(atomic_load(&waiter_done), 0);
    assert_int_equal(atomic_load(&m.state), 2); /* they sleep on it */
    uld_mutex_unlock(&m);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(atomic_load(&waiter_done), THREADS);
    assert_int_equal(atomic_load(&m.state), 0);
}

static void *try_from_other(void *arg)
{
    (void)arg;
    int got = uld_mutex_trylock(&m);
    if (got)
        uld_mutex_unlock(&m);
    return (void *)(long)got;
}

/* The owner re-enters; another thread gets it only after the last unlock. */
static void test_owner_reenters(void **state)
{
    (void)state;
    uld_mutex_lock(&m);
    uld_mutex_lock(&m);
    uld_mutex_unlock(&m);
    pthread_t t;
    void *got;
    assert_int_equal(pthread_create(&t, NULL, try_from_other, NULL), 0);
    assert_int_equal(pthread_join(t, &got), 0);
    assert_null(got);
    uld_mutex_unlock(&m);
    assert_int_equal(pthread_create(&t, NULL, try_from_other, NULL), 0);
    assert_int_equal(pthread_join(t, &got), 0);
    assert_non_null(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exclusive_under_contention),
        cmocka_unit_test(test_sleepers_all_woken),
        cmocka_unit_test(test_owner_reenters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
