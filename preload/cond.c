/*
 * cond.c - condition-variable waits.  The wait releases the mutex and takes
 * it back before returning; the validator drops it from the held stack and
 * validates the re-acquisition (before blocking).  Both symbol versions of
 * pthread_cond_wait/timedwait are provided, each forwarding to its own ABI
 * (see ulockdep.map).
 */
#include "glibc.h"
#include "real.h"

#include <errno.h>

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
    uld_cond_wait_end(arg);
}

static int wait_worker(const struct wait_call *w, pthread_cond_t *c, pthread_mutex_t *m,
                       uintptr_t ip)
{
    struct uld_acq acq;
    if (!uld_cond_wait_begin(&acq, c, m, mutex_desc(m), ip))
        return real_wait(w, c, m);
    int r;
    pthread_cleanup_push(wait_cancelled, &acq);
    r = real_wait(w, c, m);
    pthread_cleanup_pop(0);
    uld_cond_wait_end(&acq);
    return r;
}

ULD_WRAPPER int uld_cond_wait_232(pthread_cond_t *c, pthread_mutex_t *m)
{
    uld_preload_ensure();
    struct wait_call w = {.kind = WAIT_PLAIN, .plain = REAL(cond_wait_232)};
    return wait_worker(&w, c, m, CALLER_IP);
}
__asm__(".symver uld_cond_wait_232, pthread_cond_wait@@GLIBC_2.3.2");

ULD_WRAPPER int uld_cond_wait_225(pthread_cond_t *c, pthread_mutex_t *m)
{
    uld_preload_ensure();
    struct wait_call w = {.kind = WAIT_PLAIN, .plain = REAL(cond_wait_225)};
    return wait_worker(&w, c, m, CALLER_IP);
}
__asm__(".symver uld_cond_wait_225, pthread_cond_wait@GLIBC_2.2.5");

ULD_WRAPPER int uld_cond_timedwait_232(pthread_cond_t *c, pthread_mutex_t *m,
                                       const struct timespec *ts)
{
    uld_preload_ensure();
    struct wait_call w = {.kind = WAIT_TIMED, .timed = REAL(cond_timedwait_232), .abstime = ts};
    return wait_worker(&w, c, m, CALLER_IP);
}
__asm__(".symver uld_cond_timedwait_232, pthread_cond_timedwait@@GLIBC_2.3.2");

ULD_WRAPPER int uld_cond_timedwait_225(pthread_cond_t *c, pthread_mutex_t *m,
                                       const struct timespec *ts)
{
    uld_preload_ensure();
    struct wait_call w = {.kind = WAIT_TIMED, .timed = REAL(cond_timedwait_225), .abstime = ts};
    return wait_worker(&w, c, m, CALLER_IP);
}
__asm__(".symver uld_cond_timedwait_225, pthread_cond_timedwait@GLIBC_2.2.5");

ULD_WRAPPER int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
                                       const struct timespec *ts)
{
    uld_preload_ensure();
    struct wait_call w = {.kind = WAIT_CLOCK, .clock = clk, .abstime = ts};
    return wait_worker(&w, c, m, CALLER_IP);
}
