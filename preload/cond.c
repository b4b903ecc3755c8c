/*
 * cond.c - condition variables.  A wait releases the mutex and takes it back
 * before returning: the validator checks the wait (wait-for cycles, wrong
 * mutex), drops the mutex from the held stack and validates its
 * re-acquisition before blocking.  Signals and broadcasts are wake-ups.
 * Every function exists in two ABIs (GLIBC_2.3.2 and the old GLIBC_2.2.5),
 * and each wrapper forwards to its own version (see ulockdep.map).
 */
#include "glibc.h"
#include "real.h"

#include "../lib/fastpath.h"

#include <errno.h>

static const struct uld_lockdesc cond_desc = {.type = ULD_TYPE_COND, .flags = 0};

enum wait_kind { WAIT_PLAIN, WAIT_TIMED, WAIT_CLOCK };

struct wait_call {
    enum wait_kind kind;
    cond_wait_fn *plain;
    cond_timedwait_fn *timed;
    clockid_t clock;
    const struct timespec *abstime;
};

static int real_wait(const struct wait_call *w, pthread_cond_t *c, pthread_mutex_t *m)
{
    switch (w->kind) {
    case WAIT_PLAIN:
        return w->plain ? w->plain(c, m) : ENOSYS;
    case WAIT_TIMED:
        return w->timed ? w->timed(c, m, w->abstime) : ENOSYS;
    default:
        return REAL(pthread_cond_clockwait)(c, m, w->clock, w->abstime);
    }
}

/* A wait is a cancellation point: the mutex is held again when it unwinds. */
static void wait_cancelled(void *arg)
{
    uld_block_end();
    uld_cond_wait_end(arg);
}

static int wait_worker(const struct wait_call *w, pthread_cond_t *c, pthread_mutex_t *m,
                       uintptr_t ip)
{
    struct uld_acq acq;
    uld_preload_ensure();
    if (!uld_cond_wait_begin(&acq, c, m, mutex_desc(m), mutex_owner(m), ip))
        return real_wait(w, c, m);
    int r;
    pthread_cleanup_push(wait_cancelled, &acq);
    uld_block_begin(c, ip); /* for the watchdog and the kill-time report */
    r = real_wait(w, c, m);
    uld_block_end();
    pthread_cleanup_pop(0);
    /* Judged before the mutex goes back on the held stack: it was free for
     * the whole wait, so a thread blocked on it now was not waiting for us
     * while we waited (a timer thread's expiry is not a broken deadlock). */
    if (r == ETIMEDOUT)
        uld_wait_timed_out(c, ip);
    uld_cond_wait_end(&acq);
    return r;
}

static int init_worker(cond_init_fn *real, pthread_cond_t *c, const pthread_condattr_t *a,
                       uintptr_t ip)
{
    uld_preload_ensure();
    int r = real ? real(c, a) : ENOSYS;
    if (r == 0)
        uld_lock_created(c, cond_desc, ip);
    return r;
}

static int destroy_worker(cond_fn *real, pthread_cond_t *c, uintptr_t ip)
{
    uld_preload_ensure();
    uld_cond_destroying(c, ip); /* before: glibc's destroy waits for the waiters */
    int r = real ? real(c) : ENOSYS;
    uld_lock_destroyed(c, cond_desc, 0, r == 0, ip);
    return r;
}

static int wake_worker(cond_fn *real, pthread_cond_t *c, uintptr_t ip)
{
    if (!__builtin_expect(uld_fast_wake(c), 1)) {
        uld_preload_ensure();
        uld_wake(c, ULD_TYPE_COND, ip);
    }
    return real ? real(c) : ENOSYS;
}

/* One wrapper per function and ABI version, each calling its own real function. */
#define COND_WRAPPER(fn, v, ver, params, ...)                                \
    ULD_WRAPPER int uld_cond_##fn##_##v params                               \
    {                                                                        \
        __VA_ARGS__                                                          \
    }                                                                        \
    __asm__(".symver uld_cond_" #fn "_" #v ", pthread_cond_" #fn ver);

#define COND_WRAPPERS(v, ver)                                                \
    COND_WRAPPER(wait, v, ver, (pthread_cond_t * c, pthread_mutex_t * m),    \
                 struct wait_call w = {.kind = WAIT_PLAIN, .plain = REAL(cond_wait_##v)}; \
                 return wait_worker(&w, c, m, CALLER_IP);)                   \
    COND_WRAPPER(timedwait, v, ver,                                          \
                 (pthread_cond_t * c, pthread_mutex_t * m, const struct timespec *ts), \
                 struct wait_call w = {.kind = WAIT_TIMED,                   \
                                       .timed = REAL(cond_timedwait_##v),   \
                                       .abstime = ts};                       \
                 return wait_worker(&w, c, m, CALLER_IP);)                   \
    COND_WRAPPER(init, v, ver, (pthread_cond_t * c, const pthread_condattr_t *a), \
                 return init_worker(REAL(cond_init_##v), c, a, CALLER_IP);) \
    COND_WRAPPER(destroy, v, ver, (pthread_cond_t * c),                      \
                 return destroy_worker(REAL(cond_destroy_##v), c, CALLER_IP);) \
    COND_WRAPPER(signal, v, ver, (pthread_cond_t * c),                       \
                 return wake_worker(REAL(cond_signal_##v), c, CALLER_IP);)  \
    COND_WRAPPER(broadcast, v, ver, (pthread_cond_t * c),                    \
                 return wake_worker(REAL(cond_broadcast_##v), c, CALLER_IP);)

COND_WRAPPERS(232, "@@GLIBC_2.3.2")
COND_WRAPPERS(225, "@GLIBC_2.2.5")

ULD_WRAPPER int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
                                       const struct timespec *ts)
{
    struct wait_call w = {.kind = WAIT_CLOCK, .clock = clk, .abstime = ts};
    return wait_worker(&w, c, m, CALLER_IP);
}

/* ---- the current ABI's workers for other APIs on condvars (workers.h) -- */

#include "workers.h"

int uld_cond_init_at(pthread_cond_t *c, uintptr_t ip)
{
    return init_worker(REAL(cond_init_232), c, NULL, ip);
}

int uld_cond_destroy_at(pthread_cond_t *c, uintptr_t ip)
{
    return destroy_worker(REAL(cond_destroy_232), c, ip);
}

int uld_cond_wait_at(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime,
                     uintptr_t ip)
{
    struct wait_call w = {.kind = abstime ? WAIT_TIMED : WAIT_PLAIN,
                          .plain = REAL(cond_wait_232),
                          .timed = REAL(cond_timedwait_232),
                          .abstime = abstime};
    return wait_worker(&w, c, m, ip);
}

int uld_cond_wake_at(pthread_cond_t *c, int broadcast, uintptr_t ip)
{
    return wake_worker(broadcast ? REAL(cond_broadcast_232) : REAL(cond_signal_232), c, ip);
}
