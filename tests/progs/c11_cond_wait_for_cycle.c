/*
 * c11_cond_wait_for_cycle.c - cond_wait_for_cycle.c written with C11
 * <threads.h>: a waiter holds `big` while it waits on `cond` (with lock_m);
 * the only wake-up of `cond` ever seen (cnd_signal) happened with big held.
 *
 * Run at the same time, the waiter sits in cnd_timedwait holding big and
 * the waker blocks on big before it can signal: nobody ever wakes the
 * waiter.  lock_m is released during the wait and is not part of it.  This
 * run cannot hang: the waker runs first and is joined, and the wait times
 * out (thrd_timedout, checked).  Same report as the pthread version.
 *
 * EXPECT: wait-for-cycle big cond
 */
#include "progs.h"

#include <threads.h>

static mtx_t big, lock_m;
static cnd_t cond;
static int ready;

static int waker(void *arg)
{
    CHECK(mtx_lock(&big) == thrd_success);
    CHECK(mtx_lock(&lock_m) == thrd_success);
    ready = 1;
    CHECK(cnd_signal(&cond) == thrd_success); /* with big held: cond -> big */
    CHECK(mtx_unlock(&lock_m) == thrd_success);
    CHECK(mtx_unlock(&big) == thrd_success);
    return arg != NULL;
}

static int waiter(void *arg)
{
    CHECK(mtx_lock(&big) == thrd_success);
    CHECK(mtx_lock(&lock_m) == thrd_success);
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    /* big -> cond; nobody signals any more, so it times out */
    CHECK(cnd_timedwait(&cond, &lock_m, &deadline) == thrd_timedout);
    CHECK(ready == 1);
    CHECK(mtx_unlock(&lock_m) == thrd_success);
    CHECK(mtx_unlock(&big) == thrd_success);
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
    CHECK(mtx_init(&big, mtx_plain) == thrd_success);
    CHECK(mtx_init(&lock_m, mtx_timed) == thrd_success);
    CHECK(cnd_init(&cond) == thrd_success);
    run_c11(waker);
    run_c11(waiter);
    cnd_destroy(&cond);
    mtx_destroy(&lock_m);
    mtx_destroy(&big);
    return 0;
}
