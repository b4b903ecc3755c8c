/*
 * sym_abba.c - an ABBA (lock_a -> lock_b in T1, lock_b -> lock_a in T2) whose
 * stacks hold every kind of frame, for run_symbols.py, which strips this
 * program and its library and checks each frame's function and file:line
 * in the text and JSON reports once the debug files are found again:
 *   T1: take() inlined into a_then_b() (built -O2), called back from
 *       libsym_nodebug.so (no debug info), from t1_start();
 *   T2: b_then_a_cb() called back from libsym_dbg.so (sym_lib.c), from
 *       b_then_a().
 * Lines are marked `@line:NAME` for the checker.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sym_lib.h"

#define BARRIER() __asm__ volatile("" ::: "memory")

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

/* Static and called once: gcc -O2 inlines it, as in real code. */
static void take(pthread_mutex_t *m)
{
    if (pthread_mutex_lock(m)) /* @line:take */
        abort();
}

static void *a_then_b(void *arg)
{
    pthread_mutex_lock(&lock_a); /* @line:t1_a */
    take(&lock_b);               /* @line:t1_take */
    pthread_mutex_unlock(&lock_b);
    pthread_mutex_unlock(&lock_a);
    return arg;
}

static void *t1_start(void *arg)
{
    void *r = sym_nodebug_call(a_then_b, arg); /* @line:t1_call */
    BARRIER();
    return r;
}

static __attribute__((noinline)) void *b_then_a_cb(void *arg)
{
    pthread_mutex_lock(&lock_b); /* @line:t2_b */
    pthread_mutex_lock(&lock_a); /* @line:t2_a */
    pthread_mutex_unlock(&lock_a);
    pthread_mutex_unlock(&lock_b);
    return arg;
}

static void *b_then_a(void *arg)
{
    void *r = sym_lib_call(b_then_a_cb, arg); /* @line:t2_call */
    BARRIER();
    return r;
}

int main(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, t1_start, NULL) || pthread_join(t, NULL) ||
        pthread_create(&t, NULL, b_then_a, NULL) || pthread_join(t, NULL))
        return 1;
    printf("sym_abba: done (%s)\n", sym_shared_state.name);
    return 0;
}
