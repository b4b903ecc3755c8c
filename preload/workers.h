/*
 * workers.h - the pthread wrappers' workers with the program's call site
 * passed in, for wrappers of other APIs built on the same objects (C11
 * <threads.h>, c11.c).  Each behaves exactly as the pthread wrapper called
 * from `ip`: same checks, same real function, same return value and errno.
 */
#ifndef ULD_PRELOAD_WORKERS_H
#define ULD_PRELOAD_WORKERS_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define ULD_HIDDEN __attribute__((visibility("hidden")))

/* locks.c */
ULD_HIDDEN int uld_mutex_init_at(pthread_mutex_t *m, const pthread_mutexattr_t *a, uintptr_t ip);
ULD_HIDDEN int uld_mutex_destroy_at(pthread_mutex_t *m, uintptr_t ip);
ULD_HIDDEN int uld_mutex_lock_at(pthread_mutex_t *m, uintptr_t ip);
ULD_HIDDEN int uld_mutex_trylock_at(pthread_mutex_t *m, uintptr_t ip);
ULD_HIDDEN int uld_mutex_timedlock_at(pthread_mutex_t *m, const struct timespec *ts, uintptr_t ip);
ULD_HIDDEN int uld_mutex_unlock_at(pthread_mutex_t *m, uintptr_t ip);

/* cond.c (the current ABI, GLIBC_2.3.2); abstime NULL: an untimed wait */
ULD_HIDDEN int uld_cond_init_at(pthread_cond_t *c, uintptr_t ip);
ULD_HIDDEN int uld_cond_destroy_at(pthread_cond_t *c, uintptr_t ip);
ULD_HIDDEN int uld_cond_wait_at(pthread_cond_t *c, pthread_mutex_t *m,
                                const struct timespec *abstime, uintptr_t ip);
ULD_HIDDEN int uld_cond_wake_at(pthread_cond_t *c, int broadcast, uintptr_t ip);

/* process.c: start fn (pthread) or c11_fn (C11, its int result becomes the
 * thread's result) on a new thread, tracked like pthread_create's */
ULD_HIDDEN int uld_thread_create_at(pthread_t *t, const pthread_attr_t *attr,
                                    void *(*fn)(void *), int (*c11_fn)(void *), void *arg,
                                    uintptr_t ip);

#endif
