/*
 * c11_self_timedlock.c - self_timedlock.c written with C11 <threads.h>: a
 * thread relocks an mtx_timed mutex it holds, with mtx_timedlock and a
 * 50 ms timeout.
 *
 * mtx_timed is not recursive: relocking blocks, here until the timeout
 * (thrd_timedout, checked), forever with mtx_lock.  The validator reports
 * the self-deadlock before the call blocks.
 *
 * EXPECT: self-deadlock lock_m
 */
#include "progs.h"

#include <threads.h>

static mtx_t lock_m;

int main(void)
{
    CHECK(mtx_init(&lock_m, mtx_timed) == thrd_success);
    CHECK(mtx_lock(&lock_m) == thrd_success);
    struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
    CHECK(mtx_timedlock(&lock_m, &deadline) == thrd_timedout);
    CHECK(mtx_unlock(&lock_m) == thrd_success);
    mtx_destroy(&lock_m);
    return 0;
}
