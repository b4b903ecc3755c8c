/*
 * recipe_spin.h - README recipe 1: a spin lock made of one atomic word,
 * annotated with the public API.  Shared by recipe_spin_*.c, which choose:
 *   RECIPE_ANNOTATE  1: the lock calls uld_*; 0: it does not (the interposer
 *                    then sees nothing: no pthread call is ever made)
 *   RECIPE_INVERTED  1: the two phases take the locks in opposite orders
 *                    (ABBA); 0: both in the same order
 */
#ifndef RECIPE_SPIN_H
#define RECIPE_SPIN_H

#include "progs.h"

#include <sched.h>
#include <stdatomic.h>

#if !RECIPE_ANNOTATE
#define uld_lock_init(lock, name, flags) ((void)(lock), (void)(name), (void)(flags))
#define uld_acquire(lock, flags) ((void)0)
#define uld_release(lock) ((void)0)
#endif

struct spin {
    atomic_int locked;
};

static void spin_init(struct spin *s, const char *name)
{
    atomic_init(&s->locked, 0);
    uld_lock_init(s, name, 0); /* a custom lock named `name` */
}

static void spin_lock(struct spin *s)
{
    uld_acquire(s, 0); /* before spinning: a deadlock is reported, not hung */
    while (atomic_exchange_explicit(&s->locked, 1, memory_order_acquire))
        sched_yield();
}

static int spin_trylock(struct spin *s)
{
    if (atomic_exchange_explicit(&s->locked, 1, memory_order_acquire))
        return 0;
    uld_acquire(s, ULD_ACQUIRE_TRY); /* after success: a try adds no edge into it */
    return 1;
}

static void spin_unlock(struct spin *s)
{
    uld_release(s); /* before the store: the next owner may start at once */
    atomic_store_explicit(&s->locked, 0, memory_order_release);
}

static struct spin table_lock, stats_lock;
static int rows, hits;

static void *add_row(void *arg) /* table_lock -> stats_lock */
{
    spin_lock(&table_lock);
    rows++;
    spin_lock(&stats_lock);
    hits++;
    spin_unlock(&stats_lock);
    spin_unlock(&table_lock);
    return arg;
}

static void *report_stats(void *arg) /* stats_lock -> table_lock, or the same order */
{
    struct spin *first = RECIPE_INVERTED ? &stats_lock : &table_lock;
    struct spin *second = RECIPE_INVERTED ? &table_lock : &stats_lock;
    spin_lock(first);
    CHECK(!spin_trylock(first)); /* busy: held by this thread */
    spin_lock(second);
    CHECK(rows == 1 && hits == 1);
    spin_unlock(second);
    spin_unlock(first);
    return arg;
}

int main(void)
{
    spin_init(&table_lock, "table_lock");
    spin_init(&stats_lock, "stats_lock");
    run_thread(add_row, NULL);
    run_thread(report_stats, NULL);
    return 0;
}

#endif
