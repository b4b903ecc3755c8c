/*
 * c11_glibc228_abba.c - a program built before glibc 2.34 binds the C11
 * functions at version GLIBC_2.28 (they lived in libpthread then), one
 * built now at GLIBC_2.34.  Both versions are the same code in libc.so.6
 * today, and the validator's wrappers must catch both: this program binds
 * mtx_lock and mtx_unlock at GLIBC_2.28 (.symver) and takes lock_a and
 * lock_b in opposite orders in two threads, one after the other.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#include <threads.h>

__asm__(".symver mtx_lock, mtx_lock@GLIBC_2.28");
__asm__(".symver mtx_unlock, mtx_unlock@GLIBC_2.28");

static mtx_t lock_a, lock_b;

static void *take(void *arg)
{
    mtx_t *first = arg, *second = first == &lock_a ? &lock_b : &lock_a;
    CHECK(mtx_lock(first) == thrd_success);
    CHECK(mtx_lock(second) == thrd_success);
    CHECK(mtx_unlock(second) == thrd_success);
    CHECK(mtx_unlock(first) == thrd_success);
    return NULL;
}

int main(void)
{
    CHECK(mtx_init(&lock_a, mtx_plain) == thrd_success);
    CHECK(mtx_init(&lock_b, mtx_plain) == thrd_success);
    run_thread(take, &lock_a);
    run_thread(take, &lock_b);
    return 0;
}
