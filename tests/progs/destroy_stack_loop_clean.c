/*
 * destroy_stack_loop_clean.c - a per-request lock on the stack: 1,000
 * calls of a function whose local mutex and rwlock are initialised,
 * locked, unlocked and destroyed (same addresses every time, checked),
 * then a heap object with a mutex destroyed, freed, and its memory handed
 * out again (calloc: a zeroed, statically initialised mutex) and locked.
 *
 * Every use is between an init (or a fresh object) and its destroy: no
 * use-after-destroy, and no unbounded growth (tombstones end at each
 * init and at free).  Clean twin of destroy_lock_after.c.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdint.h>

static __attribute__((noinline)) uintptr_t request(void)
{
    pthread_mutex_t m;
    pthread_rwlock_t rw;
    OK(pthread_mutex_init(&m, NULL));
    OK(pthread_rwlock_init(&rw, NULL));
    OK(pthread_mutex_lock(&m));
    OK(pthread_rwlock_rdlock(&rw));
    OK(pthread_rwlock_unlock(&rw));
    OK(pthread_mutex_unlock(&m));
    OK(pthread_rwlock_destroy(&rw));
    OK(pthread_mutex_destroy(&m));
    return (uintptr_t)&m;
}

struct conn {
    int fd;
    pthread_mutex_t lock;
};

int main(void)
{
    uintptr_t first = request();
    for (int i = 1; i < 1000; i++)
        CHECK(request() == first);
    struct conn *c = malloc(sizeof(*c));
    CHECK(c != NULL);
    OK(pthread_mutex_init(&c->lock, NULL));
    OK(pthread_mutex_lock(&c->lock));
    OK(pthread_mutex_unlock(&c->lock));
    OK(pthread_mutex_destroy(&c->lock));
    free(c);
    struct conn *d = calloc(1, sizeof(*d));
    CHECK(d != NULL);
    OK(pthread_mutex_lock(&d->lock));
    OK(pthread_mutex_unlock(&d->lock));
    free(d);
    return 0;
}
