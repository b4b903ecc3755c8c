/*
 * tomb_reinit_inline.c - an init over an older lifetime's tombstone (the
 * same heap object, the same init site) is a new lifetime like any other:
 * a mutex locked in its second lifetime and re-initialised while held is
 * still destroy-held, and an rwlock locked and destroyed in its second
 * lifetime, then read-locked, is use-after-destroy of that lifetime (its
 * destroy's line), not of the first.
 *
 * EXPECT: destroy-held *
 * EXPECT-STDERR: re-initialised while this thread holds it
 * EXPECT: use-after-destroy *
 * EXPECT-STDERR: tomb_reinit_inline\.c:{{line:second_destroy}}\b
 * EXPECT-NOT-STDERR: tomb_reinit_inline\.c:{{line:first_destroy}}\b
 */
#include "progs.h"

struct request {
    pthread_mutex_t lock;
    pthread_rwlock_t table;
};

static __attribute__((noinline)) void request_init(struct request *r)
{
    OK(pthread_mutex_init(&r->lock, NULL));
    OK(pthread_rwlock_init(&r->table, NULL));
}

static void use(struct request *r)
{
    OK(pthread_mutex_lock(&r->lock));
    OK(pthread_mutex_unlock(&r->lock));
    OK(pthread_rwlock_wrlock(&r->table));
    OK(pthread_rwlock_unlock(&r->table));
}

int main(void)
{
    struct request *r = malloc(sizeof(*r));
    CHECK(r != NULL);
    request_init(r); /* the sites' first locks: classes made, sites cached */
    use(r);
    OK(pthread_mutex_destroy(&r->lock));
    OK(pthread_rwlock_destroy(&r->table)); /* @line:first_destroy */
    request_init(r); /* over both tombstones */
    use(r);
    OK(pthread_rwlock_destroy(&r->table)); /* @line:second_destroy */
    pthread_rwlock_rdlock(&r->table);      /* use after destroy: reported, left alone */
    OK(pthread_mutex_lock(&r->lock));
    OK(pthread_mutex_init(&r->lock, NULL)); /* re-initialised while held */
    OK(pthread_mutex_destroy(&r->lock));
    free(r);
    return 0;
}
