/*
 * c11_abba.c - abba_threads.c written with C11 <threads.h>: two threads
 * started with thrd_create, one after the other (thrd_join), take the
 * mtx_plain mutexes lock_a and lock_b in opposite orders.
 *
 * glibc's mtx_lock never goes through pthread_mutex_lock's PLT entry, so
 * only wrappers of the C11 API itself can see this.  Run concurrently the
 * two threads could deadlock: the same report as the pthread version, with
 * the stacks at the program's own mtx_lock calls (not inside the wrapper).
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: c11_abba\.c:{{line:ab_b}}\b
 * EXPECT-STDERR: c11_abba\.c:{{line:ba_a}}\b
 * EXPECT-STDERR: created by T1 at:\n +#0 .*\(.*c11_abba\.c:{{line:create}}\)
 */
#include "progs.h"

#include <threads.h>

static mtx_t lock_a, lock_b;

static int thread_ab(void *arg)
{
    CHECK(mtx_lock(&lock_a) == thrd_success);
    CHECK(mtx_lock(&lock_b) == thrd_success); /* @line:ab_b */
    CHECK(mtx_unlock(&lock_b) == thrd_success);
    CHECK(mtx_unlock(&lock_a) == thrd_success);
    return arg != NULL;
}

static int thread_ba(void *arg)
{
    CHECK(mtx_lock(&lock_b) == thrd_success);
    CHECK(mtx_lock(&lock_a) == thrd_success); /* @line:ba_a */
    CHECK(mtx_unlock(&lock_a) == thrd_success);
    CHECK(mtx_unlock(&lock_b) == thrd_success);
    return arg != NULL;
}

static void run_c11(thrd_start_t fn)
{
    thrd_t t;
    int res = -1;
    CHECK(thrd_create(&t, fn, NULL) == thrd_success); /* @line:create */
    CHECK(thrd_join(t, &res) == thrd_success && res == 0);
}

int main(void)
{
    CHECK(mtx_init(&lock_a, mtx_plain) == thrd_success);
    CHECK(mtx_init(&lock_b, mtx_plain) == thrd_success);
    run_c11(thread_ab);
    run_c11(thread_ba);
    mtx_destroy(&lock_b);
    mtx_destroy(&lock_a);
    return 0;
}
