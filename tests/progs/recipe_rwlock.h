/*
 * recipe_rwlock.h - README recipe 2: a writer-preferring read/write lock
 * made of atomic_exchange and sched_yield (the shape of a 3D audio
 * library's RWLock), annotated with the public API.  Shared by
 * recipe_rwlock_*.c, which choose RECIPE_ANNOTATE (uld_* calls or none)
 * and RECIPE_INVERTED (opposite orders, or one order).
 *
 * Writer preference: a writer that waits closes `entry`, so new readers
 * queue behind it.  So it is annotated without ULD_LOCK_READ_RECURSIVE:
 * a read can wait, and read-side cycles count (see README).
 */
#ifndef RECIPE_RWLOCK_H
#define RECIPE_RWLOCK_H

#include "progs.h"

#include <sched.h>
#include <stdatomic.h>

#if !RECIPE_ANNOTATE
#define uld_lock_init(lock, name, flags) ((void)(lock), (void)(name), (void)(flags))
#define uld_acquire(lock, flags) ((void)0)
#define uld_release(lock) ((void)0)
#endif

struct wp_rwlock {
    atomic_int entry;   /* readers pass it to enter; waiting writers keep it shut */
    atomic_int write;   /* held by a writer, or by the readers as a group */
    atomic_int readers; /* readers inside */
    atomic_int writers; /* writers waiting or inside */
};

static void flag_take(atomic_int *f)
{
    while (atomic_exchange_explicit(f, 1, memory_order_acquire))
        sched_yield();
}

static void flag_give(atomic_int *f)
{
    atomic_store_explicit(f, 0, memory_order_release);
}

static void wp_init(struct wp_rwlock *rw, const char *name)
{
    atomic_init(&rw->entry, 0);
    atomic_init(&rw->write, 0);
    atomic_init(&rw->readers, 0);
    atomic_init(&rw->writers, 0);
    uld_lock_init(rw, name, 0); /* not READ_RECURSIVE: readers wait behind writers */
}

static void wp_read_lock(struct wp_rwlock *rw)
{
    uld_acquire(rw, ULD_ACQUIRE_READ);
    flag_take(&rw->entry);
    if (atomic_fetch_add(&rw->readers, 1) == 0)
        flag_take(&rw->write); /* the first reader locks writers out */
    flag_give(&rw->entry);
}

static void wp_read_unlock(struct wp_rwlock *rw)
{
    uld_release(rw);
    if (atomic_fetch_sub(&rw->readers, 1) == 1)
        flag_give(&rw->write);
}

static void wp_write_lock(struct wp_rwlock *rw)
{
    uld_acquire(rw, 0);
    if (atomic_fetch_add(&rw->writers, 1) == 0)
        flag_take(&rw->entry); /* the first writer shuts new readers out */
    flag_take(&rw->write);
}

static void wp_write_unlock(struct wp_rwlock *rw)
{
    uld_release(rw);
    flag_give(&rw->write);
    if (atomic_fetch_sub(&rw->writers, 1) == 1)
        flag_give(&rw->entry);
}

static struct wp_rwlock source_list;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static int sources, mixed;

static void *mixer(void *arg) /* source_list (read) -> ctx_lock */
{
    wp_read_lock(&source_list);
    OK(pthread_mutex_lock(&ctx_lock));
    mixed += sources;
    OK(pthread_mutex_unlock(&ctx_lock));
    wp_read_unlock(&source_list);
    return arg;
}

static void *add_source(void *arg)
{
    wp_write_lock(&source_list);
    sources++;
    wp_write_unlock(&source_list);
    return arg;
}

/* ctx_lock -> source_list (read): with a writer waiting in between, this
 * reader queues behind it while the mixer waits for ctx_lock */
static void *context_query(void *arg)
{
#if RECIPE_INVERTED
    OK(pthread_mutex_lock(&ctx_lock));
    wp_read_lock(&source_list);
#else
    wp_read_lock(&source_list);
    OK(pthread_mutex_lock(&ctx_lock));
#endif
    CHECK(sources == 1 && mixed == 1);
    OK(pthread_mutex_unlock(&ctx_lock));
    wp_read_unlock(&source_list);
    return arg;
}

int main(void)
{
    wp_init(&source_list, "source_list");
    run_thread(add_source, NULL);
    run_thread(mixer, NULL);
    run_thread(context_query, NULL);
    return 0;
}

#endif
