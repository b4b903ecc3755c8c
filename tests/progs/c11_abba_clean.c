/*
 * c11_abba_clean.c - the clean twin of c11_abba.c: both threads take
 * lock_a before lock_b (one with mtx_lock, one with mtx_timedlock, which
 * waits like a lock), and a third tries lock_a with mtx_trylock while
 * holding lock_b (a try never waits, so it closes no cycle; it gets
 * thrd_success since nobody holds lock_a then).  One order, no report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <threads.h>

static mtx_t lock_a, lock_b;

static int thread_ab(void *arg)
{
    CHECK(mtx_lock(&lock_a) == thrd_success);
    CHECK(mtx_lock(&lock_b) == thrd_success);
    CHECK(mtx_unlock(&lock_b) == thrd_success);
    CHECK(mtx_unlock(&lock_a) == thrd_success);
    return arg != NULL;
}

static int thread_ab_timed(void *arg)
{
    struct timespec soon = in_ms(CLOCK_REALTIME, 1000);
    CHECK(mtx_timedlock(&lock_a, &soon) == thrd_success);
    CHECK(mtx_timedlock(&lock_b, &soon) == thrd_success);
    CHECK(mtx_unlock(&lock_b) == thrd_success);
    CHECK(mtx_unlock(&lock_a) == thrd_success);
    return arg != NULL;
}

static int thread_b_try_a(void *arg)
{
    CHECK(mtx_lock(&lock_b) == thrd_success);
    CHECK(mtx_trylock(&lock_a) == thrd_success);
    CHECK(mtx_unlock(&lock_a) == thrd_success);
    CHECK(mtx_unlock(&lock_b) == thrd_success);
    return arg != NULL;
}

static void run_c11(thrd_start_t fn)
{
    thrd_t t;
    int res = -1;
    CHECK(thrd_create(&t, fn, NULL) == thrd_success);
    CHECK(thrd_join(t, &res) == thrd_success && res == 0);
}

int main(void)
{
    CHECK(mtx_init(&lock_a, mtx_timed) == thrd_success);
    CHECK(mtx_init(&lock_b, mtx_timed) == thrd_success);
    run_c11(thread_ab);
    run_c11(thread_ab_timed);
    run_c11(thread_b_try_a);
    mtx_destroy(&lock_b);
    mtx_destroy(&lock_a);
    return 0;
}
