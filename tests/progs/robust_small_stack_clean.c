/*
 * robust_small_stack_clean.c - clean twin of robust_small_stack_report.c:
 * threads with the smallest stack glibc allows (PTHREAD_STACK_MIN, 16 KiB
 * on x86_64) nest new locks, so every acquisition is a first sighting that
 * the validator checks in full (graph search, stack capture) on that
 * stack.
 *
 * Each of four threads, one after the other, takes outer -> its own heap
 * mutex -> inner: one order, no cycle, no report.  The program itself uses
 * a few hundred bytes of each stack; the validator's checking must fit in
 * the rest.  The counts are checked.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <limits.h>

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static int done;

static __attribute__((noinline)) pthread_mutex_t *new_lock(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    CHECK(m != NULL);
    OK(pthread_mutex_init(m, NULL));
    return m;
}

static void *nest(void *arg)
{
    pthread_mutex_t *own = new_lock();
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(own));
    OK(pthread_mutex_lock(&inner));
    done++;
    OK(pthread_mutex_unlock(&inner));
    OK(pthread_mutex_unlock(own));
    OK(pthread_mutex_unlock(&outer));
    OK(pthread_mutex_destroy(own));
    free(own);
    return arg;
}

int main(void)
{
    pthread_attr_t attr;
    OK(pthread_attr_init(&attr));
    OK(pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN));
    for (int i = 0; i < 4; i++) {
        pthread_t t;
        OK(pthread_create(&t, &attr, nest, NULL));
        join_thread(t);
    }
    OK(pthread_attr_destroy(&attr));
    CHECK(done == 4);
    return 0;
}
