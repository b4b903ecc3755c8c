/*
 * real.h - the real functions behind every wrapper, resolved once, lazily,
 * with dlsym(RTLD_NEXT) (dlvsym for versioned symbols).  A wrapper whose
 * real function is still being resolved falls back to doing nothing unsafe.
 */
#ifndef ULD_PRELOAD_REAL_H
#define ULD_PRELOAD_REAL_H

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
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
    X(sem_init) X(sem_destroy) X(sem_wait) X(sem_trywait) X(sem_timedwait)  \
    X(sem_clockwait) X(sem_post)                                            \
    X(pthread_create) X(fork) X(__register_atfork) X(free) X(realloc)       \
    X(sigaction) X(pthread_sigmask) X(sigprocmask) X(siginterrupt) X(_exit) \
    X(sighold) X(sigrelse) X(sigblock) X(sigsetmask)                        \
    X(longjmp) X(_longjmp) X(siglongjmp) X(__longjmp_chk) X(dlclose)

/* glibc's pthread_atfork (libc_nonshared.a) calls this; not declared either. */
extern int __register_atfork(void (*prepare)(void), void (*parent)(void),
                             void (*child)(void), void *dso);

/* glibc's fortified longjmp, not declared in its headers. */
extern void __longjmp_chk(sigjmp_buf env, int val) __attribute__((noreturn));

/* pthread_cond_* exist in two ABIs; each wrapper forwards to its own. */
typedef int cond_wait_fn(pthread_cond_t *, pthread_mutex_t *);
typedef int cond_timedwait_fn(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int cond_init_fn(pthread_cond_t *, const pthread_condattr_t *);
typedef int cond_fn(pthread_cond_t *);

/* name, type, in both versions (232: current ABI, 225: pre-2.3.2 binaries) */
#define ULD_REAL_COND_FUNCS(X)                                              \
    X(pthread_cond_wait, cond_wait_fn, cond_wait)                           \
    X(pthread_cond_timedwait, cond_timedwait_fn, cond_timedwait)            \
    X(pthread_cond_init, cond_init_fn, cond_init)                           \
    X(pthread_cond_destroy, cond_fn, cond_destroy)                          \
    X(pthread_cond_signal, cond_fn, cond_signal)                            \
    X(pthread_cond_broadcast, cond_fn, cond_broadcast)

/* siginterrupt(), sigblock()... are deprecated; naming their types is no use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
struct uld_real_table {
#define ULD_REAL_FIELD(name) __typeof__(name) *name;
    ULD_REAL_FUNCS(ULD_REAL_FIELD)
#undef ULD_REAL_FIELD
#define ULD_REAL_COND_FIELD(name, type, field) type *field##_232, *field##_225;
    ULD_REAL_COND_FUNCS(ULD_REAL_COND_FIELD)
#undef ULD_REAL_COND_FIELD
};
#pragma GCC diagnostic pop

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

/* A parenthesised parameter or argument list, opened: wrapper macros. */
#define UNPAREN(...) __VA_ARGS__

/* init.c */
void uld_preload_init(void) __attribute__((visibility("hidden")));
extern int uld_preload_ready __attribute__((visibility("hidden")));
static inline void uld_preload_ensure(void)
{
    if (__builtin_expect(!uld_preload_ready, 0))
        uld_preload_init();
}

#endif
