/*
 * robust_c11_threads.c - a program using C11 <threads.h>: thrd_create,
 * mtx_t, cnd_t, call_once.  What ulockdep sees of it, asserted as it is
 * today (glibc 2.36).
 *
 * glibc implements mtx_lock, mtx_unlock, cnd_wait... on top of its pthread
 * code, but calls its internal entry points (mtx_lock calls
 * __pthread_mutex_lock directly, not through the PLT), so an interposer on
 * pthread_* alone would see none of the C11 lock calls.  ulockdep wraps the
 * C11 API itself: the mtx_a/mtx_b ABBA below (two threads, one after the
 * other; run concurrently they would deadlock) is reported like a pthread
 * one, and so is the pa/pb ABBA of pthread mutexes taken inside threads
 * started with thrd_create: one program, both APIs.
 *
 * The C11 calls must keep working under the validator: their return codes
 * (thrd_success, thrd_busy, thrd_timedout), the condition-variable
 * handshake, call_once and the thread results are checked.
 *
 * The mtx_trylock of mtx_b, which the thread holds, fails with thrd_busy
 * as it must; mtx_lock there would hang the thread on itself: a
 * trylock-held warning.
 *
 * EXPECT: lock-order-inversion mtx_a mtx_b
 * EXPECT: trylock-held mtx_b
 * EXPECT: lock-order-inversion pa pb
 */
#include "progs.h"

#include <threads.h>

static mtx_t mtx_a, mtx_b, cv_mtx;
static cnd_t cv;
static pthread_mutex_t pa = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pb = PTHREAD_MUTEX_INITIALIZER;
static once_flag once = ONCE_FLAG_INIT;
static int onces, ready, count;

static void init_once(void) { onces++; }

static int c11_ab(void *arg) /* mtx_a -> mtx_b, pa -> pb */
{
    call_once(&once, init_once);
    CHECK(mtx_lock(&mtx_a) == thrd_success);
    CHECK(mtx_lock(&mtx_b) == thrd_success);
    CHECK(mtx_trylock(&mtx_b) == thrd_busy);
    count++;
    CHECK(mtx_unlock(&mtx_b) == thrd_success);
    CHECK(mtx_unlock(&mtx_a) == thrd_success);
    OK(pthread_mutex_lock(&pa));
    OK(pthread_mutex_lock(&pb));
    OK(pthread_mutex_unlock(&pb));
    OK(pthread_mutex_unlock(&pa));
    return arg ? 7 : 0;
}

static int c11_ba(void *arg) /* mtx_b -> mtx_a, pb -> pa: both close cycles */
{
    call_once(&once, init_once);
    CHECK(mtx_lock(&mtx_b) == thrd_success);
    CHECK(mtx_lock(&mtx_a) == thrd_success);
    count++;
    CHECK(mtx_unlock(&mtx_a) == thrd_success);
    CHECK(mtx_unlock(&mtx_b) == thrd_success);
    OK(pthread_mutex_lock(&pb));
    OK(pthread_mutex_lock(&pa));
    OK(pthread_mutex_unlock(&pa));
    OK(pthread_mutex_unlock(&pb));
    return arg ? 8 : 0;
}

static int c11_signaller(void *arg)
{
    CHECK(mtx_lock(&cv_mtx) == thrd_success);
    ready = 1;
    CHECK(cnd_signal(&cv) == thrd_success);
    CHECK(mtx_unlock(&cv_mtx) == thrd_success);
    return arg ? 9 : 0;
}

int main(void)
{
    CHECK(mtx_init(&mtx_a, mtx_plain) == thrd_success);
    CHECK(mtx_init(&mtx_b, mtx_plain) == thrd_success);
    CHECK(mtx_init(&cv_mtx, mtx_timed) == thrd_success);
    CHECK(cnd_init(&cv) == thrd_success);
    thrd_t t;
    int res;
    CHECK(thrd_create(&t, c11_ab, &t) == thrd_success);
    CHECK(thrd_join(t, &res) == thrd_success && res == 7);
    CHECK(thrd_create(&t, c11_ba, &t) == thrd_success);
    CHECK(thrd_join(t, &res) == thrd_success && res == 8);
    CHECK(count == 2 && onces == 1);

    CHECK(mtx_lock(&cv_mtx) == thrd_success);
    struct timespec soon = in_ms(CLOCK_REALTIME, 20);
    CHECK(cnd_timedwait(&cv, &cv_mtx, &soon) == thrd_timedout);
    CHECK(thrd_create(&t, c11_signaller, &t) == thrd_success);
    while (!ready)
        CHECK(cnd_wait(&cv, &cv_mtx) == thrd_success);
    CHECK(mtx_unlock(&cv_mtx) == thrd_success);
    CHECK(thrd_join(t, &res) == thrd_success && res == 9);
    cnd_destroy(&cv);
    mtx_destroy(&cv_mtx);
    mtx_destroy(&mtx_b);
    mtx_destroy(&mtx_a);
    return 0;
}
