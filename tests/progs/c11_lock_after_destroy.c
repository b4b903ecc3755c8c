/*
 * c11_lock_after_destroy.c - destroy_lock_after.c written with C11
 * <threads.h>: mtx_lock after mtx_destroy.
 *
 * mtx_destroy is glibc's pthread_mutex_destroy, so mtx_lock fails
 * (thrd_error, checked).  One use-after-destroy naming the mutex.
 *
 * EXPECT: use-after-destroy lock_m
 */
#include "progs.h"

#include <threads.h>

static mtx_t lock_m;

int main(void)
{
    CHECK(mtx_init(&lock_m, mtx_plain) == thrd_success);
    CHECK(mtx_lock(&lock_m) == thrd_success);
    CHECK(mtx_unlock(&lock_m) == thrd_success);
    mtx_destroy(&lock_m);
    CHECK(mtx_lock(&lock_m) == thrd_error);
    return 0;
}
