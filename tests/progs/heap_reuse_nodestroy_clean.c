/*
 * heap_reuse_nodestroy_clean.c - like heap_reuse_destroy_clean.c with no
 * init and no destroy call at all: the mutexes are set with
 * PTHREAD_MUTEX_INITIALIZER by assignment, used first -> second, and the
 * object is freed; a new object at the same address (checked) is used
 * second -> first.
 *
 * Only free() tells the validator that the first locks are gone; a
 * validator that keys locks by address alone would see an inversion here.
 * free() ends a lock's lifetime like destroy (docs/reports.md), so the
 * second object's locks are new instances; their classes are their first
 * acquisition sites (in phase2), distinct from phase1's.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdint.h>

struct pair {
    pthread_mutex_t first, second;
};

static struct pair *pair_new(void)
{
    struct pair *p = malloc(sizeof(*p));
    CHECK(p != NULL);
    *p = (struct pair){PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
    return p;
}

static __attribute__((noinline)) uintptr_t phase1(void)
{
    struct pair *p = pair_new();
    OK(pthread_mutex_lock(&p->first));
    OK(pthread_mutex_lock(&p->second));
    OK(pthread_mutex_unlock(&p->second));
    OK(pthread_mutex_unlock(&p->first));
    uintptr_t addr = (uintptr_t)p;
    free(p);
    return addr;
}

static __attribute__((noinline)) uintptr_t phase2(void)
{
    struct pair *q = pair_new();
    OK(pthread_mutex_lock(&q->second));
    OK(pthread_mutex_lock(&q->first));
    OK(pthread_mutex_unlock(&q->first));
    OK(pthread_mutex_unlock(&q->second));
    uintptr_t addr = (uintptr_t)q;
    free(q);
    return addr;
}

int main(void)
{
    uintptr_t old = phase1();
    /* glibc's tcache hands the freed chunk back: same address. */
    CHECK(phase2() == old);
    return 0;
}
