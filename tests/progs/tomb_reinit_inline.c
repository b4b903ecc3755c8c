/*
 * tomb_reinit_inline.c - an init over an older lifetime's tombstone (the
 * same heap object, the same init site, a thread holding nothing: the
 * interposer's inline init) is a new lifetime like any other.  An rwlock
 * write-locked by another thread in its second lifetime and initialised
 * again is still destroy-held (the inline init must tell the tombstone's
 * mark from the live record's); a mutex locked and destroyed in its second
 * lifetime, then locked, is use-after-destroy of that lifetime (its
 * destroy's line), not of the first.
 *
 * EXPECT: destroy-held *
 * EXPECT-STDERR: re-initialised while another thread holds it
 * EXPECT: use-after-destroy *
 * EXPECT-STDERR: tomb_reinit_inline\.c:{{line:second_destroy}}\b
 * EXPECT-NOT-STDERR: tomb_reinit_inline\.c:{{line:first_destroy}}\b
 */
#include "progs.h"

struct request {
    pthread_rwlock_t table;
    pthread_mutex_t lock;
};

static pthread_barrier_t held, reinit;

static __attribute__((noinline)) void table_init(struct request *r)
{
    OK(pthread_rwlock_init(&r->table, NULL));
}

static __attribute__((noinline)) void lock_init(struct request *r)
{
    OK(pthread_mutex_init(&r->lock, NULL));
}

static void *writer(void *arg)
{
    struct request *r = arg;
    OK(pthread_rwlock_wrlock(&r->table));
    pthread_barrier_wait(&held);
    pthread_barrier_wait(&reinit);
    (void)pthread_rwlock_unlock(&r->table); /* of the new, unlocked rwlock */
    return NULL;
}

int main(void)
{
    struct request *r = malloc(sizeof(*r));
    CHECK(r != NULL);
    OK(pthread_barrier_init(&held, NULL, 2));
    OK(pthread_barrier_init(&reinit, NULL, 2));

    table_init(r); /* the site's first lock: class made, site cached */
    OK(pthread_rwlock_wrlock(&r->table));
    OK(pthread_rwlock_unlock(&r->table));
    OK(pthread_rwlock_destroy(&r->table)); /* leaves a tombstone */
    table_init(r);                         /* over it */
    pthread_t t = spawn_thread(writer, r);
    pthread_barrier_wait(&held);
    table_init(r); /* the bug: held by writer */
    pthread_barrier_wait(&reinit);
    join_thread(t);
    OK(pthread_rwlock_destroy(&r->table));

    lock_init(r);
    OK(pthread_mutex_lock(&r->lock));
    OK(pthread_mutex_unlock(&r->lock));
    OK(pthread_mutex_destroy(&r->lock)); /* @line:first_destroy */
    lock_init(r);                        /* over its tombstone */
    OK(pthread_mutex_lock(&r->lock));
    OK(pthread_mutex_unlock(&r->lock));
    OK(pthread_mutex_destroy(&r->lock)); /* @line:second_destroy */
    CHECK(pthread_mutex_lock(&r->lock) == EINVAL);
    free(r);
    return 0;
}
