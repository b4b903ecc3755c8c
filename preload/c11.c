/*
 * c11.c - C11 <threads.h>.  glibc builds mtx_*, cnd_*, thrd_* and call_once
 * on its pthread code but calls the internal entry points, which no
 * interposer sees; so the C11 API is wrapped itself.  glibc's mtx_t is a
 * pthread_mutex_t, cnd_t a pthread_cond_t, once_flag a pthread_once_t and
 * thrd_t a pthread_t: each wrapper runs the pthread wrapper's worker with
 * the program's call site (workers.h) and maps the result to thrd_* codes
 * as glibc 2.36 does.  join, exit and once go through the pthread symbols,
 * so whatever the pthread wrappers model of them applies to C11 too.
 *
 * The wrappers are unversioned: they match the GLIBC_2.28 (old libpthread)
 * and GLIBC_2.34 (libc) versions programs bind to, which are the same code.
 */
#include "real.h"
#include "workers.h"

#include <errno.h>
#include <threads.h>

_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t is a pthread_mutex_t");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t is a pthread_cond_t");
_Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag is a pthread_once_t");
_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "thrd_t is a pthread_t");

/* glibc's thrd_err_map */
static int thrd_result(int err)
{
    switch (err) {
    case 0:
        return thrd_success;
    case ENOMEM:
        return thrd_nomem;
    case ETIMEDOUT:
        return thrd_timedout;
    case EBUSY:
        return thrd_busy;
    default:
        return thrd_error;
    }
}

#define MUTEX(m) ((pthread_mutex_t *)(m))
#define COND(c) ((pthread_cond_t *)(c))

/* ---- mutexes ---------------------------------------------------------- */

ULD_WRAPPER int mtx_init(mtx_t *m, int type)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    /* as glibc: recursive if asked, else normal (mtx_timed changes nothing,
     * an invalid type gives a normal mutex) */
    if (type == (mtx_plain | mtx_recursive) || type == (mtx_timed | mtx_recursive))
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    else
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
    int r = uld_mutex_init_at(MUTEX(m), &attr, CALLER_IP);
    pthread_mutexattr_destroy(&attr);
    return thrd_result(r);
}

ULD_WRAPPER void mtx_destroy(mtx_t *m)
{
    uld_mutex_destroy_at(MUTEX(m), CALLER_IP);
}

ULD_WRAPPER int mtx_lock(mtx_t *m)
{
    return thrd_result(uld_mutex_lock_at(MUTEX(m), CALLER_IP));
}

ULD_WRAPPER int mtx_trylock(mtx_t *m)
{
    return thrd_result(uld_mutex_trylock_at(MUTEX(m), CALLER_IP));
}

ULD_WRAPPER int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict ts)
{
    return thrd_result(uld_mutex_timedlock_at(MUTEX(m), ts, CALLER_IP));
}

ULD_WRAPPER int mtx_unlock(mtx_t *m)
{
    return thrd_result(uld_mutex_unlock_at(MUTEX(m), CALLER_IP));
}

/* ---- condition variables ---------------------------------------------- */

ULD_WRAPPER int cnd_init(cnd_t *c)
{
    return thrd_result(uld_cond_init_at(COND(c), CALLER_IP));
}

ULD_WRAPPER void cnd_destroy(cnd_t *c)
{
    uld_cond_destroy_at(COND(c), CALLER_IP);
}

ULD_WRAPPER int cnd_wait(cnd_t *c, mtx_t *m)
{
    return thrd_result(uld_cond_wait_at(COND(c), MUTEX(m), NULL, CALLER_IP));
}

ULD_WRAPPER int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m,
                              const struct timespec *restrict ts)
{
    /* glibc passes a NULL ts on to pthread_cond_timedwait (EINVAL); keep it
     * a timed wait, never an untimed one */
    static const struct timespec invalid = {0, -1};
    return thrd_result(uld_cond_wait_at(COND(c), MUTEX(m), ts ? ts : &invalid, CALLER_IP));
}

ULD_WRAPPER int cnd_signal(cnd_t *c)
{
    return thrd_result(uld_cond_wake_at(COND(c), 0, CALLER_IP));
}

ULD_WRAPPER int cnd_broadcast(cnd_t *c)
{
    return thrd_result(uld_cond_wake_at(COND(c), 1, CALLER_IP));
}

/* ---- threads and one-time initialisation ------------------------------- */

ULD_WRAPPER int thrd_create(thrd_t *t, thrd_start_t fn, void *arg)
{
    return thrd_result(uld_thread_create_at((pthread_t *)t, NULL, NULL, fn, arg, CALLER_IP));
}

ULD_WRAPPER int thrd_join(thrd_t t, int *res)
{
    void *result;
    int r = pthread_join((pthread_t)t, &result);
    if (r == 0 && res)
        *res = (int)(intptr_t)result;
    return thrd_result(r);
}

ULD_WRAPPER _Noreturn void thrd_exit(int res)
{
    pthread_exit((void *)(intptr_t)res);
}

ULD_WRAPPER void call_once(once_flag *flag, void (*fn)(void))
{
    pthread_once((pthread_once_t *)flag, fn);
}
