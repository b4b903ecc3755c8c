/*
 * class_inversion.c - two locks of class A (initialised in a_init) and
 * two of class B (b_init); thread 1 nests a1 -> b1, thread 2 (later)
 * nests b2 -> a2.
 *
 * No instance cycle: a1, b1, a2, b2 are four different locks, and this
 * program cannot deadlock.  But the code paths take "an A then a B" and
 * "a B then an A"; once they meet the same pair (a1 with b1), they can.
 * That is what a class-order-inversion warns about: a warning (exit 0)
 * naming the classes, whose names are the init call sites a_init:LINE and
 * b_init:LINE.
 *
 * EXPECT: class-order-inversion a_init:* b_init:*
 */
#include "progs.h"

static pthread_mutex_t a1, a2, b1, b2;

static __attribute__((noinline)) void a_init(pthread_mutex_t *m)
{
    OK(pthread_mutex_init(m, NULL));
}

static __attribute__((noinline)) void b_init(pthread_mutex_t *m)
{
    OK(pthread_mutex_init(m, NULL));
}

struct pair {
    pthread_mutex_t *first, *second;
};

static void *nest(void *arg)
{
    struct pair *p = arg;
    OK(pthread_mutex_lock(p->first));
    OK(pthread_mutex_lock(p->second));
    OK(pthread_mutex_unlock(p->second));
    OK(pthread_mutex_unlock(p->first));
    return NULL;
}

int main(void)
{
    a_init(&a1);
    a_init(&a2);
    b_init(&b1);
    b_init(&b2);
    struct pair a1b1 = {&a1, &b1}, b2a2 = {&b2, &a2};
    run_thread(nest, &a1b1);
    run_thread(nest, &b2a2);
    return 0;
}
