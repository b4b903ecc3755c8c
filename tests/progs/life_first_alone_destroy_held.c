/*
 * life_first_alone_destroy_held.c - a per-request lock taken once with
 * nothing held (its first acquisition validates nothing) and destroyed
 * while still held, in a joinable thread: destroy-held, as for any lock.
 * The lock is the second initialised at its site (no record until that
 * acquisition).
 *
 * EXPECT: destroy-held obj_new:*#2
 */
#include "progs.h"

struct obj {
    pthread_mutex_t lock;
};

static __attribute__((noinline)) struct obj *obj_new(void)
{
    struct obj *o = calloc(1, sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->lock, NULL));
    return o;
}

static void *worker(void *arg)
{
    struct obj *o = arg;
    OK(pthread_mutex_lock(&o->lock));
    CHECK_RC(pthread_mutex_destroy(&o->lock), EBUSY); /* glibc refuses: still held */
    OK(pthread_mutex_unlock(&o->lock));
    return NULL;
}

int main(void)
{
    struct obj *first = obj_new(), *o = obj_new();
    run_thread(worker, o);
    OK(pthread_mutex_destroy(&o->lock));
    OK(pthread_mutex_destroy(&first->lock));
    free(o);
    free(first);
    return 0;
}
