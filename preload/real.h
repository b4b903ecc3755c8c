/*
 * real.h - the real functions behind every wrapper, resolved once, lazily,
 * with dlsym(RTLD_NEXT) (dlvsym for versioned symbols).  A wrapper whose
 * real function is still being resolved falls back to doing nothing unsafe.
 */
#ifndef ULD_PRELOAD_REAL_H
#define ULD_PRELOAD_REAL_H

#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <unistd.h>

#define ULD_REAL_FUNCS(X)                                                   \
    X(pthread_mutex_init) X(pthread_mutex_destroy) X(pthread_mutex_lock)    \
    X(pthread_mutex_trylock) X(pthread_mutex_timedlock)                     \
    X(pthread_mutex_clocklock) X(pthread_mutex_unlock)                      \
    X(pthread_rwlock_init) X(pthread_rwlock_destroy)                        \
    X(pthread_rwlock_rdlock) X(pthread_rwlock_tryrdlock)                    \
    X(pthread_rwlock_timedrdlock) X(pthread_rwlock_clockrdlock)             \
    X(pthread_rwlock_wrlock) X(pthread_rwlock_trywrlock)                    \
    X(pthread_rwlock_timedwrlock) X(pthread_rwlock_clockwrlock)             \
    X(pthread_rwlock_unlock)                                                \
    X(pthread_spin_init) X(pthread_spin_destroy) X(pthread_spin_lock)       \
    X(pthread_spin_trylock) X(pthread_spin_unlock)                          \
    X(pthread_cond_clockwait)                                               \
    X(pthread_create) X(fork) X(free) X(realloc)

/* pthread_cond_* exist in two ABIs; each wrapper forwards to its own. */
typedef int cond_wait_fn(pthread_cond_t *, pthread_mutex_t *);
typedef int cond_timedwait_fn(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);

struct uld_real_table {
#define ULD_REAL_FIELD(name) __typeof__(name) *name;
    ULD_REAL_FUNCS(ULD_REAL_FIELD)
#undef ULD_REAL_FIELD
    cond_wait_fn *cond_wait_232, *cond_wait_225;
    cond_timedwait_fn *cond_timedwait_232, *cond_timedwait_225;
};

extern struct uld_real_table uld_real __attribute__((visibility("hidden")));

/* Resolve everything (idempotent); safe to call from any wrapper. */
void uld_real_resolve(void) __attribute__((visibility("hidden")));
int uld_real_resolving(void) __attribute__((visibility("hidden")));

/* The real function, resolving first if needed. */
#define REAL(name)                                                          \
    (__builtin_expect(uld_real.name != NULL, 1) ? uld_real.name             \
                                                : (uld_real_resolve(), uld_real.name))

/* The program's call site, for reports. */
#define CALLER_IP ((uintptr_t)__builtin_return_address(0))
#define ULD_WRAPPER __attribute__((visibility("default")))

/* init.c */
void uld_preload_init(void) __attribute__((visibility("hidden")));
extern int uld_preload_ready __attribute__((visibility("hidden")));
static inline void uld_preload_ensure(void)
{
    if (__builtin_expect(!uld_preload_ready, 0))
        uld_preload_init();
}

#endif
