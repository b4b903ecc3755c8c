/*
 * sem.c - POSIX semaphores.  A semaphore is a wait object, never a held
 * lock: a blocking wait is checked before it blocks (the locks it holds must
 * not be needed by whoever posts), and a post is a wake-up.
 */
#include "real.h"

#include "../lib/hooks.h"

#include <errno.h>

static const struct uld_lockdesc sem_desc = {.type = ULD_TYPE_SEM, .flags = 0};

/* Blocking waits: check, wait, record the token taken.  errno passes through. */
#define SEM_WAIT(s, real_call)                                               \
    do {                                                                     \
        uld_preload_ensure();                                                \
        uld_sem_wait_begin((s), CALLER_IP);                                  \
        uld_block_begin((s), CALLER_IP);                                     \
        int r_ = real_call;                                                  \
        int e_ = errno;                                                      \
        uld_block_end();                                                     \
        if (r_ == 0)                                                         \
            uld_sem_acquired((s), 1, CALLER_IP);                             \
        else if (e_ == ETIMEDOUT)                                            \
            uld_wait_timed_out((s), CALLER_IP);                              \
        errno = e_;                                                          \
        return r_;                                                           \
    } while (0)

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

ULD_WRAPPER int sem_wait(sem_t *s)
{
    SEM_WAIT(s, REAL(sem_wait)(s));
}

ULD_WRAPPER int sem_timedwait(sem_t *s, const struct timespec *ts)
{
    SEM_WAIT(s, REAL(sem_timedwait)(s, ts));
}

ULD_WRAPPER int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *ts)
{
    SEM_WAIT(s, REAL(sem_clockwait)(s, clk, ts));
}

/* A trywait never blocks: no wait to check, but the token is taken. */
ULD_WRAPPER int sem_trywait(sem_t *s)
{
    uld_preload_ensure();
    int r = REAL(sem_trywait)(s);
    if (r == 0) {
        int e = errno;
        uld_sem_acquired(s, 0, CALLER_IP);
        errno = e;
    }
    return r;
}

ULD_WRAPPER int sem_post(sem_t *s)
{
    uld_preload_ensure();
    uld_wake(s, ULD_TYPE_SEM, CALLER_IP);
    return REAL(sem_post)(s);
}
