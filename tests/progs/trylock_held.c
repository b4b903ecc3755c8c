/*
 * trylock_held.c - second trylocks of locks the calling thread already
 * holds: a normal mutex (pthread_mutex_trylock), an error-checking mutex,
 * a rwlock held for writing (pthread_rwlock_trywrlock) and a C11 mtx_t
 * (mtx_trylock).
 *
 * Each fails with EBUSY (thrd_busy), checked, and the program goes on, but
 * the blocking call in its place (lock, wrlock, mtx_lock) would never
 * return: a code path that falls back to the blocking call, or a
 * "try, else lock" helper, hangs the thread on itself.  One trylock-held
 * warning per lock (warnings leave the exit status alone).
 *
 * EXPECT: trylock-held plain_m
 * EXPECT: trylock-held check_m
 * EXPECT: trylock-held table_rw
 * EXPECT: trylock-held c11_m
 * EXPECT-EXIT: 0
 */
#include "progs.h"

#include <threads.h>

static pthread_mutex_t plain_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t check_m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_rwlock_t table_rw = PTHREAD_RWLOCK_INITIALIZER;
static mtx_t c11_m;

int main(void)
{
    OK(pthread_mutex_lock(&plain_m));
    CHECK_RC(pthread_mutex_trylock(&plain_m), EBUSY);
    OK(pthread_mutex_unlock(&plain_m));

    OK(pthread_mutex_lock(&check_m));
    CHECK_RC(pthread_mutex_trylock(&check_m), EBUSY);
    OK(pthread_mutex_unlock(&check_m));

    OK(pthread_rwlock_wrlock(&table_rw));
    CHECK_RC(pthread_rwlock_trywrlock(&table_rw), EBUSY);
    OK(pthread_rwlock_unlock(&table_rw));

    CHECK(mtx_init(&c11_m, mtx_plain) == thrd_success);
    CHECK(mtx_lock(&c11_m) == thrd_success);
    CHECK(mtx_trylock(&c11_m) == thrd_busy);
    CHECK(mtx_unlock(&c11_m) == thrd_success);
    mtx_destroy(&c11_m);
    return 0;
}
