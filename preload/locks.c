/*
 * locks.c - wrappers for pthread mutexes, rwlocks and spinlocks.  One worker
 * shape for all: validate before the real call (so a deadlock is reported
 * before the thread blocks), call the real function, record the outcome.
 * Return values and errno pass through untouched.
 */
#include "glibc.h"
#include "real.h"

#include "../lib/fastpath.h"

#include <errno.h>

#define MUTEX_TAG(m) (uld_lock_tags ? mutex_tag(m) : NULL)
#define RWLOCK_TAG(rw) (uld_lock_tags ? rwlock_tag(rw) : NULL)

/*
 * Acquire.  The wrapper is the fast path alone (fastpath.h): a hit pushes
 * and calls the real function, with no frame beyond the call's; anything
 * else goes to the wrapper's slow path, a function of its own, given the
 * program's call site.  The fast path reaches the real function without a
 * NULL test: a thread takes it only once the validator is ready, after
 * every real function was resolved.  `untimed`: the call only blocks (no
 * timeout), so a lock whose acquisition never fails (a plain mutex, a
 * spinlock) jumps to the real function, as if the wrapper were not there.
 */
/* The real call's result r says it took the lock (a robust mutex whose
 * owner died is taken too). */
#define TOOK(r) ((r) == 0 || (r) == EOWNERDEAD)

#define ACQUIRE_FAST(lockp, tag_word, af, untimed, real_fn, args, slow_call) \
    do {                                                                     \
        int hit_ = uld_fast_acquire((const void *)(lockp), (tag_word), (af), CALLER_IP); \
        if (__builtin_expect(hit_ != 0, 1)) {                                \
            if ((untimed) && __builtin_expect(hit_ == ULD_FAST_SURE, 1))     \
                return uld_real.real_fn(UNPAREN args);                       \
            int f_ = uld_real.real_fn(UNPAREN args);                         \
            if (__builtin_expect(!TOOK(f_), 0))                              \
                return fast_failed(f_, CALLER_IP);                           \
            return f_;                                                       \
        }                                                                    \
        return slow_call;                                                    \
    } while (0)

/*
 * The slow path: validate before the real call (so a deadlock is reported
 * before the thread blocks), call it, record the outcome.  In a fork child,
 * first check for a lock another thread held at fork.
 */
#define ACQUIRE_SLOW(lockp, tag_word, desc, af, owner, real_call, recordless) \
    do {                                                                     \
        struct uld_acq acq_;                                                 \
        int back_ = uld_fast_take_back((const void *)(lockp), (tag_word), (af), ip); \
        if (back_) {                                                         \
            int f_ = real_call;                                              \
            if (__builtin_expect(!TOOK(f_), 0))                              \
                return fast_failed(f_, ip);                                  \
            if (back_ & ULD_FAST_NOTE_TAKEN)                                 \
                uld_fast_taken(ip);                                          \
            return f_;                                                       \
        }                                                                    \
        if (recordless)                                                      \
            return 0;                                                        \
        uld_preload_ensure();                                                \
        if (__builtin_expect(uld_forked_child, 0))                           \
            uld_fork_child_touch((const void *)(lockp), (owner), ip);        \
        if (!uld_acquire_begin(&acq_, (const void *)(lockp), (desc), (af), ip)) \
            return real_call;                                                \
        int r_ = real_call; /* blocked state: published by begin, ended by end */ \
        uld_acquire_end(&acq_, TOOK(r_));                                    \
        if (r_ == ETIMEDOUT)                                                 \
            uld_wait_timed_out((const void *)(lockp), ip);                   \
        return r_;                                                           \
    } while (0)

/* A fast push whose real call failed (trylock busy, timeout): undone. */
static __attribute__((noinline, cold)) int fast_failed(int err, uintptr_t ip)
{
    uintptr_t lock = uld_fast_undo(ip);
    if (err == ETIMEDOUT && lock)
        uld_wait_timed_out((const void *)lock, ip);
    return err;
}

/* An acquiring wrapper `name` and its slow path name##_slow.  params and
 * args are the real function's, parenthesised; the lock is the first.
 * `recordless`: an expression that takes the lock without a record
 * (recordless.c), true if it did; 0 for the calls that may not. */
#define LOCK_WRAPPER(name, lockp, params, args, tag_word, af, untimed, desc, owner, \
                     recordless)                                             \
    static __attribute__((noinline)) int name##_slow(UNPAREN params, uintptr_t ip) \
    {                                                                        \
        ACQUIRE_SLOW(lockp, tag_word, desc, af, owner, REAL(name)(UNPAREN args), recordless); \
    }                                                                        \
    ULD_WRAPPER int name(UNPAREN params)                                     \
    {                                                                        \
        ACQUIRE_FAST(lockp, tag_word, af, untimed, name, args,               \
                     name##_slow(UNPAREN args, CALLER_IP));                  \
    }

/* Release: pop the newest held lock, else the slow path. */
#define UNLOCK_WRAPPER(name, T, desc, owner)                                 \
    static __attribute__((noinline)) int name##_slow(T *l, uintptr_t ip)     \
    {                                                                        \
        if (uld_fast_release_below((const void *)l))                         \
            return uld_real.name(l);                                         \
        uld_preload_ensure();                                                \
        uld_on_release((const void *)l, (desc), (owner), ip);                            \
        return REAL(name)(l);                                                \
    }                                                                        \
    ULD_WRAPPER int name(T *l)                                               \
    {                                                                        \
        if (__builtin_expect(uld_fast_release((const void *)l), 1))          \
            return uld_real.name(l);                                         \
        return name##_slow(l, CALLER_IP);                                    \
    }

/*
 * Init and destroy.  The common lifetime, a lock initialised holding
 * nothing and destroyed unused, is a pending tag written and cleared
 * (fastpath.h); otherwise the full hooks check a re-initialisation or a
 * destroy of a known lock.  The full ones are functions of their own
 * (full_call, given the call site), so that the common one saves no
 * registers for them.
 */
#define INIT(lockp, tag_after, desc_after, locked, real_call, full_call)     \
    do {                                                                     \
        struct uld_thread *t_ = uld_fast_init_begin((const void *)(lockp));  \
        /* a lock that looks held may be a recordless entry's: checked */    \
        if (!__builtin_expect(t_ != NULL && !(locked), 1))                   \
            return full_call;                                                \
        int f_ = real_call;                                                  \
        if (f_ != 0)                                                         \
            return f_;                                                       \
        if (!uld_fast_init_end(t_, (const void *)(lockp), (tag_after), CALLER_IP)) \
            uld_lock_created((const void *)(lockp), (desc_after), CALLER_IP); \
        return 0;                                                            \
    } while (0)

#define INIT_FULL(lockp, desc_after, locked, real_call)                      \
    do {                                                                     \
        uld_preload_ensure();                                                \
        uld_lock_reinit_check((const void *)(lockp), (desc_after), (locked), CALLER_IP); \
        int r_ = real_call;                                                  \
        if (r_ == 0)                                                         \
            uld_lock_created((const void *)(lockp), (desc_after), CALLER_IP);              \
        return r_;                                                           \
    } while (0)

/* failed_call: with the real call's error f_ (EBUSY: the lock is held or
 * waited for), which the full hook checks on the object as the call left it. */
#define DESTROY(lockp, tag, real_call, full_call, failed_call)               \
    do {                                                                     \
        uint64_t *tag_ = (tag);                                              \
        if (!__builtin_expect(uld_fast_destroy_unseen((const void *)(lockp), tag_), 1)) \
            return full_call;                                                \
        int f_ = real_call;                                                  \
        if (!__builtin_expect(f_ == 0, 1))                                   \
            return failed_call;                                              \
        uld_fast_destroyed_unseen((const void *)(lockp), tag_, CALLER_IP);   \
        return 0;                                                            \
    } while (0)

/* The object is read before the call: destroy may scribble on it. */
#define DESTROY_FULL(lockp, desc, locked, real_call)                         \
    do {                                                                     \
        uld_preload_ensure();                                                \
        struct uld_lockdesc d_ = (desc);                                     \
        int held_ = (locked);                                                \
        int r_ = real_call;                                                  \
        uld_lock_destroyed((const void *)(lockp), d_, held_, r_ == 0, CALLER_IP);          \
        return r_;                                                           \
    } while (0)

/* ---- mutexes ---------------------------------------------------------- */

#undef CALLER_IP
#define CALLER_IP ip /* the full paths: called by a wrapper with the program's call site */

static __attribute__((noinline)) int mutex_init_full(pthread_mutex_t *m,
                                                     const pthread_mutexattr_t *attr, uintptr_t ip)
{
    INIT_FULL(m, mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_init)(m, attr));
}

static __attribute__((noinline)) int mutex_destroy_full(pthread_mutex_t *m, uintptr_t ip)
{
    DESTROY_FULL(m, mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_destroy)(m));
}

static __attribute__((noinline)) int rwlock_init_full(pthread_rwlock_t *rw,
                                                      const pthread_rwlockattr_t *attr, uintptr_t ip)
{
    INIT_FULL(rw, rwlock_desc(rw), rwlock_locked(rw), REAL(pthread_rwlock_init)(rw, attr));
}

static __attribute__((noinline)) int rwlock_destroy_full(pthread_rwlock_t *rw, uintptr_t ip)
{
    DESTROY_FULL(rw, rwlock_desc(rw), rwlock_locked(rw), REAL(pthread_rwlock_destroy)(rw));
}

static __attribute__((noinline)) int mutex_destroy_failed(pthread_mutex_t *m, int err, uintptr_t ip)
{
    uld_preload_ensure();
    uld_lock_destroyed(m, mutex_desc(m), mutex_locked(m), 0, ip);
    return err;
}

static __attribute__((noinline)) int rwlock_destroy_failed(pthread_rwlock_t *rw, int err,
                                                           uintptr_t ip)
{
    uld_preload_ensure();
    uld_lock_destroyed(rw, rwlock_desc(rw), rwlock_locked(rw), 0, ip);
    return err;
}

#undef CALLER_IP
#define CALLER_IP ((uintptr_t)__builtin_return_address(0))

ULD_WRAPPER int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
    INIT(m, MUTEX_TAG(m), mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_init)(m, attr),
         mutex_init_full(m, attr, CALLER_IP));
}

ULD_WRAPPER int pthread_mutex_destroy(pthread_mutex_t *m)
{
    DESTROY(m, MUTEX_TAG(m), REAL(pthread_mutex_destroy)(m), mutex_destroy_full(m, CALLER_IP),
            mutex_destroy_failed(m, f_, CALLER_IP));
}

LOCK_WRAPPER(pthread_mutex_lock, m, (pthread_mutex_t *m), (m), mutex_tag_word(m), 0, 1,
             mutex_desc(m), mutex_fork_owner(m),
             mutex_plain(m) && uld_recordless_lock(m, mutex_tag_word(m), ip,
                                                   uld_real.pthread_mutex_trylock))
LOCK_WRAPPER(pthread_mutex_trylock, m, (pthread_mutex_t *m), (m), mutex_tag_word(m), ULD_AF_TRY,
             0, mutex_desc(m), mutex_fork_owner(m), 0)
LOCK_WRAPPER(pthread_mutex_timedlock, m, (pthread_mutex_t *m, const struct timespec *ts), (m, ts),
             mutex_tag_word(m), 0, 0, mutex_desc(m), mutex_fork_owner(m), 0)
LOCK_WRAPPER(pthread_mutex_clocklock, m,
             (pthread_mutex_t *m, clockid_t clk, const struct timespec *ts), (m, clk, ts),
             mutex_tag_word(m), 0, 0, mutex_desc(m), mutex_fork_owner(m), 0)
UNLOCK_WRAPPER(pthread_mutex_unlock, pthread_mutex_t, mutex_desc(l), mutex_owner(l))

/* ---- rwlocks ---------------------------------------------------------- */

ULD_WRAPPER int pthread_rwlock_init(pthread_rwlock_t *rw, const pthread_rwlockattr_t *attr)
{
    INIT(rw, RWLOCK_TAG(rw), rwlock_desc(rw), 0, REAL(pthread_rwlock_init)(rw, attr),
         rwlock_init_full(rw, attr, CALLER_IP));
}

ULD_WRAPPER int pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
    DESTROY(rw, RWLOCK_TAG(rw), REAL(pthread_rwlock_destroy)(rw), rwlock_destroy_full(rw, CALLER_IP),
            rwlock_destroy_failed(rw, f_, CALLER_IP));
}

/* an rwlock's blocking calls may fail (EDEADLK, EAGAIN): never untimed */
#define RWLOCK_WRAPPER(name, af, params, args)                               \
    LOCK_WRAPPER(name, rw, params, args, rwlock_tag_word(rw), af, 0, rwlock_desc(rw), \
                 rwlock_fork_owner(rw), 0)
RWLOCK_WRAPPER(pthread_rwlock_rdlock, ULD_AF_READ, (pthread_rwlock_t *rw), (rw))
RWLOCK_WRAPPER(pthread_rwlock_tryrdlock, ULD_AF_READ | ULD_AF_TRY, (pthread_rwlock_t *rw), (rw))
RWLOCK_WRAPPER(pthread_rwlock_timedrdlock, ULD_AF_READ,
               (pthread_rwlock_t *rw, const struct timespec *ts), (rw, ts))
RWLOCK_WRAPPER(pthread_rwlock_clockrdlock, ULD_AF_READ,
               (pthread_rwlock_t *rw, clockid_t clk, const struct timespec *ts), (rw, clk, ts))
RWLOCK_WRAPPER(pthread_rwlock_wrlock, 0, (pthread_rwlock_t *rw), (rw))
RWLOCK_WRAPPER(pthread_rwlock_trywrlock, ULD_AF_TRY, (pthread_rwlock_t *rw), (rw))
RWLOCK_WRAPPER(pthread_rwlock_timedwrlock, 0, (pthread_rwlock_t *rw, const struct timespec *ts),
               (rw, ts))
RWLOCK_WRAPPER(pthread_rwlock_clockwrlock, 0,
               (pthread_rwlock_t *rw, clockid_t clk, const struct timespec *ts), (rw, clk, ts))
UNLOCK_WRAPPER(pthread_rwlock_unlock, pthread_rwlock_t, rwlock_desc(l), rwlock_owner(l))

/* ---- spinlocks -------------------------------------------------------- */

ULD_WRAPPER int pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
    INIT_FULL(s, spin_desc(), spin_locked(s), REAL(pthread_spin_init)(s, pshared));
}

ULD_WRAPPER int pthread_spin_destroy(pthread_spinlock_t *s)
{
    DESTROY_FULL(s, spin_desc(), spin_locked(s), REAL(pthread_spin_destroy)(s));
}

LOCK_WRAPPER(pthread_spin_lock, s, (pthread_spinlock_t *s), (s), NULL, 0, 1, spin_desc(),
             spin_owner(s), 0)
LOCK_WRAPPER(pthread_spin_trylock, s, (pthread_spinlock_t *s), (s), NULL, ULD_AF_TRY, 0, spin_desc(),
             spin_owner(s), 0)
UNLOCK_WRAPPER(pthread_spin_unlock, pthread_spinlock_t, spin_desc(), spin_owner(l))

/* ---- the same workers for other APIs on these objects (workers.h) ------ */

#include "workers.h"

/* The macros above name the program's call site CALLER_IP; here it is passed in. */
#undef CALLER_IP
#define CALLER_IP ip

int uld_mutex_init_at(pthread_mutex_t *m, const pthread_mutexattr_t *a, uintptr_t ip)
{
    INIT(m, MUTEX_TAG(m), mutex_desc(m), mutex_locked(m), REAL(pthread_mutex_init)(m, a),
         mutex_init_full(m, a, ip));
}

int uld_mutex_destroy_at(pthread_mutex_t *m, uintptr_t ip)
{
    DESTROY(m, MUTEX_TAG(m), REAL(pthread_mutex_destroy)(m), mutex_destroy_full(m, ip),
            mutex_destroy_failed(m, f_, ip));
}

int uld_mutex_lock_at(pthread_mutex_t *m, uintptr_t ip)
{
    /* 0: the caller maps the result (C11), no tail call to gain */
    ACQUIRE_FAST(m, mutex_tag_word(m), 0, 0, pthread_mutex_lock, (m), pthread_mutex_lock_slow(m, ip));
}

int uld_mutex_trylock_at(pthread_mutex_t *m, uintptr_t ip)
{
    ACQUIRE_FAST(m, mutex_tag_word(m), ULD_AF_TRY, 0, pthread_mutex_trylock, (m),
                 pthread_mutex_trylock_slow(m, ip));
}

int uld_mutex_timedlock_at(pthread_mutex_t *m, const struct timespec *ts, uintptr_t ip)
{
    ACQUIRE_FAST(m, mutex_tag_word(m), 0, 0, pthread_mutex_timedlock, (m, ts),
                 pthread_mutex_timedlock_slow(m, ts, ip));
}

int uld_mutex_unlock_at(pthread_mutex_t *m, uintptr_t ip)
{
    if (__builtin_expect(uld_fast_release(m), 1))
        return uld_real.pthread_mutex_unlock(m);
    return pthread_mutex_unlock_slow(m, ip);
}
