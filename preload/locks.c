/*
 * locks.c - wrappers for pthread mutexes, rwlocks and spinlocks.  One worker
 * shape for all: validate before the real call (so a deadlock is reported
 * before the thread blocks), call the real function, record the outcome.
 * Return values and errno pass through untouched.
 */
#include "glibc.h"
#include "real.h"

#include "../lib/model/chain.h"
#include "../lib/fastpath.h"

#include <errno.h>

/*
 * Acquire: begin (validate), real call, end (record if acquired).  In a
 * fork child, first check for a lock another thread held at fork.
 */
#define ACQUIRE(lockp, desc, tagp, af, owner, real_call)                     \
    do {                                                                     \
        struct uld_acq acq_;                                                 \
        if (__builtin_expect(uld_fast_acquire((const void *)(lockp), (tagp), (af), CALLER_IP), 1)) { \
            int f_ = real_call;                                              \
            if (__builtin_expect(f_ != 0 && f_ != EOWNERDEAD, 0)) {          \
                uld_fast_undo((const void *)(lockp));                        \
                if (f_ == ETIMEDOUT)                                         \
                    uld_wait_timed_out((const void *)(lockp), CALLER_IP);    \
            }                                                                \
            return f_;                                                       \
        }                                                                    \
        uld_preload_ensure();                                                \
        if (__builtin_expect(uld_forked_child, 0))                           \
            uld_fork_child_touch((const void *)(lockp), (owner), CALLER_IP); \
        if (!uld_acquire_begin(&acq_, (const void *)(lockp), (desc), (af), CALLER_IP))     \
            return real_call;                                                \
        int r_ = real_call; /* blocked state: published by begin, ended by end */ \
        uld_acquire_end(&acq_, r_ == 0 || r_ == EOWNERDEAD);                 \
        if (r_ == ETIMEDOUT)                                                 \
            uld_wait_timed_out((const void *)(lockp), CALLER_IP);            \
        return r_;                                                           \
    } while (0)

#define RELEASE(lockp, desc, owner, real_call)                               \
    do {                                                                     \
        if (!__builtin_expect(uld_fast_release((const void *)(lockp)), 1)) { \
            uld_preload_ensure();                                            \
            uld_on_release((const void *)(lockp), (desc), (owner), CALLER_IP); \
        }                                                                    \
        return real_call;                                                    \
    } while (0)

#define INIT(lockp, desc_after, locked, real_call)                           \
    do {                                                                     \
        uld_preload_ensure();                                                \
        uld_lock_reinit_check((const void *)(lockp), (locked), CALLER_IP);   \
        int r_ = real_call;                                                  \
        if (r_ == 0)                                                         \
            uld_lock_created((const void *)(lockp), (desc_after), CALLER_IP);              \
        return r_;                                                           \
    } while (0)

/* The object is read before the call: destroy may scribble on it. */
#define DESTROY(lockp, desc, locked, real_call)                              \
    do {                                                                     \
        uld_preload_ensure();                                                \
        struct uld_lockdesc d_ = (desc);                                     \
        int held_ = (locked);                                                \
        int r_ = real_call;                                                  \
        uld_lock_destroyed((const void *)(lockp), d_, held_, r_ == 0, CALLER_IP);          \
        return r_;                                                           \
    } while (0)

/* The acquisition flags double as the validator's mode bits. */
_Static_assert(ULD_AF_READ == ULD_MODE_READ && ULD_AF_TRY == ULD_MODE_TRY, "mode bits");
#define MUTEX_TAG(m) (uld_lock_tags ? mutex_tag(m) : NULL)
#define RWLOCK_TAG(rw) (uld_lock_tags ? rwlock_tag(rw) : NULL)

/* ---- mutexes ---------------------------------------------------------- */

ULD_WRAPPER int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
    INIT(m, mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_init)(m, attr));
}

ULD_WRAPPER int pthread_mutex_destroy(pthread_mutex_t *m)
{
    DESTROY(m, mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_destroy)(m));
}

ULD_WRAPPER int pthread_mutex_lock(pthread_mutex_t *m)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), 0, mutex_fork_owner(m), REAL(pthread_mutex_lock)(m));
}

ULD_WRAPPER int pthread_mutex_trylock(pthread_mutex_t *m)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), ULD_AF_TRY, mutex_fork_owner(m), REAL(pthread_mutex_trylock)(m));
}

ULD_WRAPPER int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *ts)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), 0, mutex_fork_owner(m), REAL(pthread_mutex_timedlock)(m, ts));
}

ULD_WRAPPER int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk,
                                        const struct timespec *ts)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), 0, mutex_fork_owner(m), REAL(pthread_mutex_clocklock)(m, clk, ts));
}

ULD_WRAPPER int pthread_mutex_unlock(pthread_mutex_t *m)
{
    RELEASE(m, mutex_desc(m), mutex_owner(m), REAL(pthread_mutex_unlock)(m));
}

/* ---- rwlocks ---------------------------------------------------------- */

ULD_WRAPPER int pthread_rwlock_init(pthread_rwlock_t *rw, const pthread_rwlockattr_t *attr)
{
    INIT(rw, rwlock_desc(rw), rwlock_locked(rw), REAL(pthread_rwlock_init)(rw, attr));
}

ULD_WRAPPER int pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
    DESTROY(rw, rwlock_desc(rw), rwlock_locked(rw), REAL(pthread_rwlock_destroy)(rw));
}

ULD_WRAPPER int pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), ULD_AF_READ, rwlock_fork_owner(rw), REAL(pthread_rwlock_rdlock)(rw));
}

ULD_WRAPPER int pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), ULD_AF_READ | ULD_AF_TRY, rwlock_fork_owner(rw), REAL(pthread_rwlock_tryrdlock)(rw));
}

ULD_WRAPPER int pthread_rwlock_timedrdlock(pthread_rwlock_t *rw, const struct timespec *ts)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), ULD_AF_READ, rwlock_fork_owner(rw), REAL(pthread_rwlock_timedrdlock)(rw, ts));
}

ULD_WRAPPER int pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clk,
                                           const struct timespec *ts)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), ULD_AF_READ, rwlock_fork_owner(rw), REAL(pthread_rwlock_clockrdlock)(rw, clk, ts));
}

ULD_WRAPPER int pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), 0, rwlock_fork_owner(rw), REAL(pthread_rwlock_wrlock)(rw));
}

ULD_WRAPPER int pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), ULD_AF_TRY, rwlock_fork_owner(rw), REAL(pthread_rwlock_trywrlock)(rw));
}

ULD_WRAPPER int pthread_rwlock_timedwrlock(pthread_rwlock_t *rw, const struct timespec *ts)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), 0, rwlock_fork_owner(rw), REAL(pthread_rwlock_timedwrlock)(rw, ts));
}

ULD_WRAPPER int pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clk,
                                           const struct timespec *ts)
{
    ACQUIRE(rw, rwlock_desc(rw), RWLOCK_TAG(rw), 0, rwlock_fork_owner(rw), REAL(pthread_rwlock_clockwrlock)(rw, clk, ts));
}

ULD_WRAPPER int pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
    RELEASE(rw, rwlock_desc(rw), rwlock_owner(rw), REAL(pthread_rwlock_unlock)(rw));
}

/* ---- spinlocks -------------------------------------------------------- */

ULD_WRAPPER int pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
    INIT(s, spin_desc(), spin_locked(s), REAL(pthread_spin_init)(s, pshared));
}

ULD_WRAPPER int pthread_spin_destroy(pthread_spinlock_t *s)
{
    DESTROY(s, spin_desc(), spin_locked(s), REAL(pthread_spin_destroy)(s));
}

ULD_WRAPPER int pthread_spin_lock(pthread_spinlock_t *s)
{
    ACQUIRE(s, spin_desc(), NULL, 0, spin_owner(s), REAL(pthread_spin_lock)(s));
}

ULD_WRAPPER int pthread_spin_trylock(pthread_spinlock_t *s)
{
    ACQUIRE(s, spin_desc(), NULL, ULD_AF_TRY, spin_owner(s), REAL(pthread_spin_trylock)(s));
}

ULD_WRAPPER int pthread_spin_unlock(pthread_spinlock_t *s)
{
    RELEASE(s, spin_desc(), spin_owner(s), REAL(pthread_spin_unlock)(s));
}

/* ---- the same workers for other APIs on these objects (workers.h) ------ */

#include "workers.h"

/* The macros above name the program's call site CALLER_IP; here it is passed in. */
#undef CALLER_IP
#define CALLER_IP ip

int uld_mutex_init_at(pthread_mutex_t *m, const pthread_mutexattr_t *a, uintptr_t ip)
{
    INIT(m, mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_init)(m, a));
}

int uld_mutex_destroy_at(pthread_mutex_t *m, uintptr_t ip)
{
    DESTROY(m, mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_destroy)(m));
}

int uld_mutex_lock_at(pthread_mutex_t *m, uintptr_t ip)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), 0, mutex_fork_owner(m), REAL(pthread_mutex_lock)(m));
}

int uld_mutex_trylock_at(pthread_mutex_t *m, uintptr_t ip)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), ULD_AF_TRY, mutex_fork_owner(m), REAL(pthread_mutex_trylock)(m));
}

int uld_mutex_timedlock_at(pthread_mutex_t *m, const struct timespec *ts, uintptr_t ip)
{
    ACQUIRE(m, mutex_desc(m), MUTEX_TAG(m), 0, mutex_fork_owner(m), REAL(pthread_mutex_timedlock)(m, ts));
}

int uld_mutex_unlock_at(pthread_mutex_t *m, uintptr_t ip)
{
    RELEASE(m, mutex_desc(m), mutex_owner(m), REAL(pthread_mutex_unlock)(m));
}
