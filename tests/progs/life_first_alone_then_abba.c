/*
 * life_first_alone_then_abba.c - a per-request lock whose first acquisition
 * is alone (nothing held, nothing taken under it: no dependency, so no
 * validation and no graph node then), later taken in both orders with
 * lock_a by two threads that run one after the other.  The lock is the
 * second initialised at its site, so it has no record until that first
 * acquisition (docs/design.md, "Lock lifecycles").  The inversion must be
 * reported as for any lock.
 *
 * EXPECT: lock-order-inversion obj_new:*#2 lock_a
 */
#include "progs.h"

struct obj {
    pthread_mutex_t lock;
    int n;
};

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline)) struct obj *obj_new(void)
{
    struct obj *o = calloc(1, sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->lock, NULL));
    return o;
}

static void *a_then_obj(void *arg)
{
    struct obj *o = arg;
    OK(pthread_mutex_lock(&o->lock)); /* alone: its first acquisition */
    o->n++;
    OK(pthread_mutex_unlock(&o->lock));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&o->lock));
    o->n++;
    OK(pthread_mutex_unlock(&o->lock));
    OK(pthread_mutex_unlock(&lock_a));
    return NULL;
}

static void *obj_then_a(void *arg)
{
    struct obj *o = arg;
    OK(pthread_mutex_lock(&o->lock));
    OK(pthread_mutex_lock(&lock_a));
    o->n++;
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&o->lock));
    return NULL;
}

int main(void)
{
    struct obj *first = obj_new(), *o = obj_new();
    run_thread(a_then_obj, o);
    run_thread(obj_then_a, o);
    CHECK(o->n == 3);
    OK(pthread_mutex_destroy(&o->lock));
    OK(pthread_mutex_destroy(&first->lock));
    free(o);
    free(first);
    return 0;
}
