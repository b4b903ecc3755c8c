/*
 * sem.c - POSIX semaphores.  A semaphore is a wait object: a blocking wait
 * is checked before it blocks (the locks it holds must not be needed by
 * whoever posts), and a post is a wake-up.  One initialised to 1 is also a
 * lock while its taker holds the token (lib/waits.c).  A wait checked before
 * with the same locks held, and the post of a held token, take the fast
 * path (lib/fastpath.h).
 */
#include "real.h"

#include "../lib/fastpath.h"

#include <errno.h>

static const struct uld_lockdesc sem_desc = {.type = ULD_TYPE_SEM, .flags = 0};

/* A wait (waited) or try that returned r: its token, or its timeout.
 * errno passes through. */
static __attribute__((noinline)) void sem_took_slow(sem_t *s, int r, int waited, uintptr_t ip)
{
    int e = errno;
    if (r == 0)
        uld_sem_acquired(s, waited, ip);
    else if (waited && e == ETIMEDOUT)
        uld_wait_timed_out(s, ip);
    errno = e;
}

/*
 * A blocking wait `name`: the wrapper is the fast path (fastpath.h), a wait
 * checked before with the same locks held; its full path name##_slow
 * checks, waits and records what the wait took.
 */
#define SEM_WAIT_WRAPPER(name, params, args)                                 \
    static __attribute__((noinline)) int name##_slow(UNPAREN params, uintptr_t ip) \
    {                                                                        \
        uld_preload_ensure();                                                \
        uld_sem_wait_begin(s, ip);                                           \
        uld_block_begin(s, ip);                                              \
        int r_ = REAL(name)(UNPAREN args);                                   \
        uld_block_end();                                                     \
        sem_took_slow(s, r_, 1, ip);                                         \
        return r_;                                                           \
    }                                                                        \
    ULD_WRAPPER int name(UNPAREN params)                                     \
    {                                                                        \
        struct uld_fast_wait fw_;                                            \
        if (!__builtin_expect(uld_fast_sem_wait_begin(&fw_, s, CALLER_IP), 1)) \
            return name##_slow(UNPAREN args, CALLER_IP);                     \
        int r_ = uld_real.name(UNPAREN args);                                \
        if (__builtin_expect(!uld_fast_sem_waited(&fw_, s, r_, CALLER_IP), 0)) \
            sem_took_slow(s, r_, 1, CALLER_IP);                              \
        return r_;                                                           \
    }

ULD_WRAPPER int sem_init(sem_t *s, int pshared, unsigned value)
{
    uld_preload_ensure();
    int r = REAL(sem_init)(s, pshared, value);
    if (r == 0) {
        int e = errno;
        uld_sem_created(s, value, CALLER_IP);
        errno = e;
    }
    return r;
}

ULD_WRAPPER int sem_destroy(sem_t *s)
{
    uld_preload_ensure();
    uld_sem_destroying(s);
    int r = REAL(sem_destroy)(s);
    int e = errno;
    uld_lock_destroyed(s, sem_desc, 0, r == 0, CALLER_IP);
    errno = e;
    return r;
}

SEM_WAIT_WRAPPER(sem_wait, (sem_t *s), (s))
SEM_WAIT_WRAPPER(sem_timedwait, (sem_t *s, const struct timespec *ts), (s, ts))
SEM_WAIT_WRAPPER(sem_clockwait, (sem_t *s, clockid_t clk, const struct timespec *ts),
                 (s, clk, ts))

/* A trywait never blocks: no wait to check, but the token is taken. */
static __attribute__((noinline)) int sem_trywait_slow(sem_t *s, uintptr_t ip)
{
    uld_preload_ensure();
    int r = REAL(sem_trywait)(s);
    sem_took_slow(s, r, 0, ip);
    return r;
}

ULD_WRAPPER int sem_trywait(sem_t *s)
{
    if (!__builtin_expect(uld_fast_self != NULL, 1))
        return sem_trywait_slow(s, CALLER_IP);
    int r = uld_real.sem_trywait(s);
    if (r == 0 && !__builtin_expect(uld_fast_sem_tried(s, CALLER_IP), 1))
        sem_took_slow(s, r, 0, CALLER_IP);
    return r;
}

static __attribute__((noinline)) int sem_post_slow(sem_t *s, uintptr_t ip)
{
    if (uld_fast_wake(s)) /* here, not in sem_post: a release saves no registers for it */
        return uld_real.sem_post(s);
    uld_preload_ensure();
    uld_wake(s, ULD_TYPE_SEM, ip);
    return REAL(sem_post)(s);
}

/* The post of a token this thread holds is its release, any other a
 * wake-up (fastpath.h). */
ULD_WRAPPER int sem_post(sem_t *s)
{
    if (__builtin_expect(uld_fast_sem_post(s), 1))
        return uld_real.sem_post(s);
    return sem_post_slow(s, CALLER_IP);
}
