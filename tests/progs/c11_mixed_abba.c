/*
 * c11_mixed_abba.c - one program, both APIs, one cycle: thread_ab (a C11
 * thread) takes the mtx_t c11_lock and then the pthread mutex posix_lock;
 * thread_ba (a pthread) takes posix_lock and then c11_lock.
 *
 * A mtx_t is a pthread_mutex_t in glibc, and a lock is one node of the
 * graph whichever API takes it: run concurrently the two threads could
 * deadlock, so the cycle is reported.  Exiting a C11 thread with thrd_exit
 * passes its result to thrd_join (checked).
 *
 * EXPECT: lock-order-inversion c11_lock posix_lock
 */
#include "progs.h"

#include <threads.h>

static mtx_t c11_lock;
static pthread_mutex_t posix_lock = PTHREAD_MUTEX_INITIALIZER;

static int thread_ab(void *arg)
{
    CHECK(mtx_lock(&c11_lock) == thrd_success);
    OK(pthread_mutex_lock(&posix_lock));
    OK(pthread_mutex_unlock(&posix_lock));
    CHECK(mtx_unlock(&c11_lock) == thrd_success);
    thrd_exit(arg ? 3 : 0);
}

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&posix_lock));
    CHECK(mtx_lock(&c11_lock) == thrd_success);
    CHECK(mtx_unlock(&c11_lock) == thrd_success);
    OK(pthread_mutex_unlock(&posix_lock));
    return arg;
}

int main(void)
{
    CHECK(mtx_init(&c11_lock, mtx_plain) == thrd_success);
    thrd_t t;
    int res = -1;
    CHECK(thrd_create(&t, thread_ab, &t) == thrd_success);
    CHECK(thrd_join(t, &res) == thrd_success && res == 3);
    run_thread(thread_ba, NULL);
    mtx_destroy(&c11_lock);
    return 0;
}
