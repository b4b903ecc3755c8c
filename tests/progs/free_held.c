/*
 * free_held.c - a thread frees a heap object whose mutex it holds, then
 * exits.
 *
 * free() ends a lock's lifetime like destroy (docs/reports.md: "destroy
 * (or free) of a lock that is held"), so this is destroy-held, named
 * "obj->lock" by uld_lock_set_name().  After the free the lock no longer
 * exists, so it is no longer held either: the thread's exit is not
 * exit-holding, and main's later use of the same memory for a fresh
 * object and lock (a new instance) reports nothing.
 *
 * EXPECT: destroy-held obj->lock
 */
#include "progs.h"

struct obj {
    pthread_mutex_t lock;
    int refs;
};

static struct obj *obj_new(void)
{
    struct obj *o = malloc(sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->lock, NULL));
    uld_lock_set_name(&o->lock, "obj->lock");
    o->refs = 1;
    return o;
}

static void *put_while_locked(void *arg)
{
    struct obj *o = obj_new();
    OK(pthread_mutex_lock(&o->lock));
    o->refs--;
    free(o); /* bug: still locked */
    return arg;
}

int main(void)
{
    run_thread(put_while_locked, NULL);
    struct obj *o = obj_new();
    OK(pthread_mutex_lock(&o->lock));
    OK(pthread_mutex_unlock(&o->lock));
    OK(pthread_mutex_destroy(&o->lock));
    free(o);
    return 0;
}
