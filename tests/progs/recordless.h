/*
 * recordless.h - per-request mutexes, as servers make them: one init site,
 * so every lock after the site's first is initialised lazily (no record,
 * lazy.c), and locked holding nothing it is taken without one
 * (recordless.c).  The scenarios using it check that such a lock is still
 * seen by every rule that needs its record.
 */
#ifndef RECORDLESS_H
#define RECORDLESS_H

#include "progs.h"

#include <sched.h>

struct request {
    pthread_mutex_t lock;
    int state;
};

static __attribute__((noinline)) struct request *request_new(void)
{
    struct request *r = calloc(1, sizeof(*r));
    CHECK(r != NULL);
    OK(pthread_mutex_init(&r->lock, NULL)); /* @line:request_init */
    return r;
}

static inline void request_free(struct request *r)
{
    OK(pthread_mutex_destroy(&r->lock));
    free(r);
}

/* One call site for every request lock's acquisition and release. */
static __attribute__((noinline)) void request_lock(struct request *r)
{
    OK(pthread_mutex_lock(&r->lock));
}

static __attribute__((noinline)) void request_unlock(struct request *r)
{
    OK(pthread_mutex_unlock(&r->lock));
}

/*
 * A thread's first request lock: made, taken and freed once.  The first
 * call in the process makes the init site's class (the site's later inits
 * are lazy); in each thread it captures the stack of the thread-end need
 * at request_lock's site (the slow path), after which the thread takes
 * requests' locks there without a record.
 */
static inline void request_thread_warm(void)
{
    struct request *r = request_new();
    request_lock(r);
    request_unlock(r);
    request_free(r);
}

/* Handshakes that do not enter the validator: a barrier or a wait would,
 * and the waiter's held lock would get its record there. */
static inline void flag_set(int *flag)
{
    __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

static inline void flag_wait(int *flag)
{
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
        sched_yield();
}

/*
 * A thread that takes r's lock holding nothing (no record) and keeps it,
 * outside the validator, from holder_start() until holder_stop(); then it
 * unlocks it (of whatever the caller left there: glibc's normal mutex
 * does not check).
 */
static int holder_held, holder_released;

static void *holder(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    flag_set(&holder_held);
    flag_wait(&holder_released);
    (void)pthread_mutex_unlock(&r->lock);
    return NULL;
}

static inline pthread_t holder_start(struct request *r)
{
    pthread_t t = spawn_thread(holder, r);
    flag_wait(&holder_held);
    return t;
}

static inline void holder_stop(pthread_t t)
{
    flag_set(&holder_released);
    join_thread(t);
}

#endif
