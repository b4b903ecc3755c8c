/*
 * heap_reuse_destroy_clean.c - a heap object with two mutexes: locked
 * first -> second, destroyed and freed; a new object is then allocated at
 * the same address (checked) and locked second -> first.
 *
 * Destroy (and free) ends the locks' lifetimes: the new object's locks are
 * new instances, and second -> first closes no cycle.  The second
 * object's locks are initialised at other call sites (phase2), hence are
 * other classes as well: no class cycle either.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdint.h>

struct pair {
    pthread_mutex_t first, second;
};

static __attribute__((noinline)) uintptr_t phase1(void)
{
    struct pair *p = malloc(sizeof(*p));
    CHECK(p != NULL);
    OK(pthread_mutex_init(&p->first, NULL));
    OK(pthread_mutex_init(&p->second, NULL));
    OK(pthread_mutex_lock(&p->first));
    OK(pthread_mutex_lock(&p->second));
    OK(pthread_mutex_unlock(&p->second));
    OK(pthread_mutex_unlock(&p->first));
    OK(pthread_mutex_destroy(&p->first));
    OK(pthread_mutex_destroy(&p->second));
    uintptr_t addr = (uintptr_t)p;
    free(p);
    return addr;
}

static __attribute__((noinline)) struct pair *phase2(void)
{
    struct pair *q = malloc(sizeof(*q));
    CHECK(q != NULL);
    OK(pthread_mutex_init(&q->first, NULL));
    OK(pthread_mutex_init(&q->second, NULL));
    OK(pthread_mutex_lock(&q->second));
    OK(pthread_mutex_lock(&q->first));
    OK(pthread_mutex_unlock(&q->first));
    OK(pthread_mutex_unlock(&q->second));
    OK(pthread_mutex_destroy(&q->first));
    OK(pthread_mutex_destroy(&q->second));
    return q;
}

int main(void)
{
    uintptr_t old = phase1();
    struct pair *q = phase2();
    /* glibc's tcache hands the freed chunk back: same address. */
    CHECK((uintptr_t)q == old);
    free(q);
    return 0;
}
