/*
 * progs.h - helpers shared by the whole-program tests in tests/progs/.
 *
 * Include it first (it defines _GNU_SOURCE for the *_np and clock* calls).
 * Every check that fails prints file:line and exits 1, so a program that
 * misbehaves natively fails its progs-native.* test.  Nothing here takes a
 * lock, so the helpers never show up in the dependency graph.
 */
#ifndef PROGS_H
#define PROGS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ulockdep.h"

/* Exit 1 with a message unless `cond` holds. */
#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* Exit 1 with a message unless `call` returns `want` (an errno value). */
#define CHECK_RC(call, want)                                               \
    do {                                                                   \
        int rc_ = (call);                                                  \
        if (rc_ != (want)) {                                               \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d\n",   \
                    __FILE__, __LINE__, #call, rc_, strerror(rc_),         \
                    (int)(want));                                          \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

#define OK(call) CHECK_RC(call, 0)

static inline pthread_t spawn_thread(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    OK(pthread_create(&t, NULL, fn, arg));
    return t;
}

static inline void *join_thread(pthread_t t)
{
    void *ret;
    OK(pthread_join(t, &ret));
    return ret;
}

/* Run `fn` in a new thread and wait for it: phases that never overlap. */
static inline void run_thread(void *(*fn)(void *), void *arg)
{
    join_thread(spawn_thread(fn, arg));
}

/* Absolute time `ms` milliseconds from now on clock `clk`. */
static inline struct timespec in_ms(clockid_t clk, long ms)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

#endif /* PROGS_H */
