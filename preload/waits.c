/*
 * waits.c - joins, barriers and one-time initialisation.
 *
 * pthread_join waits for a thread's end, pthread_barrier_wait for the other
 * participants: both are wait objects.  pthread_once and the C++ static
 * guard (__cxa_guard_*, which std::call_once does not use: libstdc++ 12
 * builds it on pthread_once) are locks held while the initialiser runs: a
 * caller waits for them exactly like for a mutex.  Return values and errno
 * pass through untouched.  The real functions are resolved here, lazily:
 * the C++ ones exist only in programs that load libstdc++.
 */
#include "real.h"

#include "../lib/fastpath.h"
#include "../lib/hooks.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

/* Itanium C++ ABI, implemented by libstdc++. */
int __cxa_guard_acquire(uint64_t *g);
void __cxa_guard_release(uint64_t *g);
void __cxa_guard_abort(uint64_t *g);

#define WAIT_REAL_FUNCS(X)                                                  \
    X(pthread_join) X(pthread_timedjoin_np) X(pthread_clockjoin_np)         \
    X(pthread_tryjoin_np) X(pthread_barrier_init) X(pthread_barrier_destroy) \
    X(pthread_barrier_wait) X(pthread_once) X(__cxa_guard_acquire)          \
    X(__cxa_guard_release) X(__cxa_guard_abort)

static struct {
#define WAIT_REAL_FIELD(name) __typeof__(name) *name;
    WAIT_REAL_FUNCS(WAIT_REAL_FIELD)
#undef WAIT_REAL_FIELD
} real_waits;

/* dlsym may allocate, and an allocator may lock: resolve on first use, outside
 * any validator state; a racing first call resolves the same pointer twice. */
static inline void *wait_real(void **slot, const char *name)
{
    void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (__builtin_expect(f == NULL, 0)) {
        f = dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, f, __ATOMIC_RELAXED);
    }
    return f;
}
#define WREAL(name) ((__typeof__(name) *)wait_real((void **)&real_waits.name, #name))

static const struct uld_lockdesc barrier_desc = {.type = ULD_TYPE_BARRIER};
static const struct uld_lockdesc once_desc = {.type = ULD_TYPE_ONCE};

/* ---- joins -------------------------------------------------------------- */

#define JOIN(th, timed, real_call)                                           \
    do {                                                                     \
        uld_preload_ensure();                                                \
        uld_join_begin((const void *)(th), CALLER_IP);                       \
        int r_ = real_call;                                                  \
        int e_ = errno;                                                      \
        uld_join_end((const void *)(th), r_ == 0);                           \
        if ((timed) && r_ == ETIMEDOUT)                                      \
            uld_wait_timed_out((const void *)(th), CALLER_IP);               \
        errno = e_;                                                          \
        return r_;                                                           \
    } while (0)

ULD_WRAPPER int pthread_join(pthread_t th, void **ret)
{
    JOIN(th, 0, WREAL(pthread_join)(th, ret));
}

ULD_WRAPPER int pthread_timedjoin_np(pthread_t th, void **ret, const struct timespec *ts)
{
    JOIN(th, 1, WREAL(pthread_timedjoin_np)(th, ret, ts));
}

ULD_WRAPPER int pthread_clockjoin_np(pthread_t th, void **ret, clockid_t clk,
                                     const struct timespec *ts)
{
    JOIN(th, 1, WREAL(pthread_clockjoin_np)(th, ret, clk, ts));
}

/* Never waits, so it depends on nothing; a success still ends the thread. */
ULD_WRAPPER int pthread_tryjoin_np(pthread_t th, void **ret)
{
    uld_preload_ensure();
    int r = WREAL(pthread_tryjoin_np)(th, ret);
    int e = errno;
    uld_join_end((const void *)th, r == 0);
    errno = e;
    return r;
}

/* ---- barriers ----------------------------------------------------------- */

ULD_WRAPPER int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
                                     unsigned count)
{
    uld_preload_ensure();
    int r = WREAL(pthread_barrier_init)(b, attr, count);
    int e = errno;
    if (r == 0)
        uld_lock_created(b, barrier_desc, CALLER_IP);
    errno = e;
    return r;
}

ULD_WRAPPER int pthread_barrier_destroy(pthread_barrier_t *b)
{
    uld_preload_ensure();
    int r = WREAL(pthread_barrier_destroy)(b);
    int e = errno;
    uld_lock_destroyed(b, barrier_desc, 0, r == 0, CALLER_IP);
    errno = e;
    return r;
}

ULD_WRAPPER int pthread_barrier_wait(pthread_barrier_t *b)
{
    uld_preload_ensure();
    uld_barrier_wait_begin(b, CALLER_IP);
    int r = WREAL(pthread_barrier_wait)(b);
    int e = errno;
    uld_barrier_wait_end(b);
    errno = e;
    return r;
}

/* ---- one-time initialisation -------------------------------------------- */

/*
 * The once control is held around the real call: the initialiser runs
 * with it held (its locks depend on it), and a caller that finds another
 * thread initialising waits for it like for a lock.  A call after the
 * initialisation is done still counts, as a lock taken uncontended does.
 */
ULD_WRAPPER int pthread_once(pthread_once_t *c, void (*init)(void))
{
    if (__builtin_expect(uld_fast_acquire(c, NULL, 0, CALLER_IP), 1)) {
        int r = WREAL(pthread_once)(c, init);
        if (!uld_fast_release(c))
            uld_on_release(c, once_desc, uld_self_tid(), CALLER_IP);
        return r;
    }
    uld_preload_ensure();
    struct uld_acq a;
    int tracked = uld_acquire_begin(&a, c, once_desc, 0, CALLER_IP);
    if (tracked)
        uld_acquire_end(&a, 1);
    int r = WREAL(pthread_once)(c, init);
    if (tracked) {
        int e = errno;
        uld_on_release(c, once_desc, uld_self_tid(), CALLER_IP);
        errno = e;
    }
    return r;
}

/* Returns 1 when the caller must run the initialiser, holding the guard
 * until release or abort; 0 when it was done (perhaps after waiting). */
ULD_WRAPPER int __cxa_guard_acquire(uint64_t *g)
{
    uld_preload_ensure();
    struct uld_acq a;
    int tracked = uld_acquire_begin(&a, g, once_desc, 0, CALLER_IP);
    int r = WREAL(__cxa_guard_acquire)(g);
    if (tracked) {
        int e = errno;
        uld_acquire_end(&a, 1);
        if (!r)
            uld_on_release(g, once_desc, uld_self_tid(), CALLER_IP);
        errno = e;
    }
    return r;
}

ULD_WRAPPER void __cxa_guard_release(uint64_t *g)
{
    WREAL(__cxa_guard_release)(g);
    int e = errno;
    uld_on_release(g, once_desc, uld_self_tid(), CALLER_IP);
    errno = e;
}

ULD_WRAPPER void __cxa_guard_abort(uint64_t *g)
{
    WREAL(__cxa_guard_abort)(g);
    int e = errno;
    uld_on_release(g, once_desc, uld_self_tid(), CALLER_IP);
    errno = e;
}
