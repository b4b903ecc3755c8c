/*
 * destroy_lazy_lifetime_after.c - one mutex object, three lifetimes made at
 * one init site: the first is locked and destroyed (it leaves a
 * tombstone), the second is initialised and destroyed without being locked,
 * then the object is locked once more.
 *
 * The lock after the second destroy is use-after-destroy of the second
 * lifetime.  The first lifetime's tombstone must not stand in for it: the
 * report must not say the lock was destroyed at the first destroy's line
 * (the second destroy, never locked, leaves no tombstone of its own; glibc's
 * destroyed mark still catches the use, place of destroy unknown).
 *
 * EXPECT: use-after-destroy *
 * EXPECT-NOT-STDERR: destroy_lazy_lifetime_after\.c:{{line:first_destroy}}\b
 */
#include "progs.h"

struct request {
    pthread_mutex_t lock;
};

static __attribute__((noinline)) void request_init(struct request *r)
{
    OK(pthread_mutex_init(&r->lock, NULL));
}

int main(void)
{
    struct request *r = malloc(sizeof(*r));
    CHECK(r != NULL);
    request_init(r);
    OK(pthread_mutex_lock(&r->lock));
    OK(pthread_mutex_unlock(&r->lock));
    OK(pthread_mutex_destroy(&r->lock)); /* @line:first_destroy */
    request_init(r);                     /* the site is known now: no record */
    OK(pthread_mutex_destroy(&r->lock)); /* never locked in this lifetime */
    CHECK(pthread_mutex_lock(&r->lock) == EINVAL);
    free(r);
    return 0;
}
