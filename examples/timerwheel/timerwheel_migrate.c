/*
 * timerwheel_migrate.c - bases coming and going with their CPU, moving
 * timers between bases, statistics (kernel/time/timer.c: timers_prepare_cpu,
 * timers_dead_cpu, migrate_timer_list).
 *
 * Locks: the only places that hold two base locks.  tw_cpu_dead() takes the
 * dead base, then the live one with uld_lock_nested(.., 1); callers
 * serialise it with every other hotplug operation (the hotplug write lock),
 * so no two migrations run at once.  tw_pull_timers() takes the lower-
 * numbered base first and the higher one nested, so any two pulls agree.
 */
#define _GNU_SOURCE
#include "timerwheel_internal.h"

#include <errno.h>
#include <sched.h>

#include "ulockdep.h"

bool tw_cpu_online(struct tw_wheel *w, unsigned cpu)
{
    return cpu < w->ncpus && atomic_load(&w->bases[cpu].online);
}

int tw_cpu_prepare(struct tw_wheel *w, unsigned cpu)
{
    if (cpu >= w->ncpus)
        return -EINVAL;
    struct tw_base *b = &w->bases[cpu];
    pthread_mutex_lock(&b->lock);
    if (!atomic_load(&b->online)) {
        b->clk = atomic_load(&w->jiffies);
        b->next_expiry = b->clk + TW_NEXT_MAX_DELTA;
        tw_publish(b);
        atomic_store(&b->is_idle, false);
        atomic_store(&b->online, true);
    }
    pthread_mutex_unlock(&b->lock);
    return 0;
}

/* Moves every queued timer of `from` to `to`; both locks held. */
static unsigned tw_move_all(struct tw_base *from, struct tw_base *to, uint64_t now)
{
    unsigned moved = 0;
    tw_forward_base(to, now);
    for (unsigned idx = 0; idx < TW_WHEEL_SIZE; idx++) {
        struct tw_timer *t;
        while ((t = from->vectors[idx]) != NULL) {
            tw_detach(from, t);
            atomic_store(&t->flags, to->cpu);
            tw_enqueue(to, t);
            moved++;
        }
    }
    return moved;
}

int tw_cpu_dead(struct tw_wheel *w, unsigned cpu, unsigned to)
{
    if (cpu >= w->ncpus || to >= w->ncpus || cpu == to || !tw_cpu_online(w, to))
        return -EINVAL;
    struct tw_base *old = &w->bases[cpu], *nb = &w->bases[to];

    pthread_mutex_lock(&old->lock);
    atomic_store(&old->online, false);      /* no new arming, no remote expiry */
    while (old->expiring) {                 /* a busy CPU is running our timers */
        pthread_mutex_unlock(&old->lock);
        sched_yield();
        pthread_mutex_lock(&old->lock);
    }
    atomic_store(&old->is_idle, false);
    /* Same class, one level down: the hotplug lock keeps migrations apart. */
    uld_lock_nested(&nb->lock, 1);
    pthread_mutex_lock(&nb->lock);
    unsigned moved = tw_move_all(old, nb, atomic_load(&w->jiffies));
    nb->stats.migrated += moved;
    old->next_expiry = old->clk + TW_NEXT_MAX_DELTA;
    tw_publish(old);
    pthread_mutex_unlock(&nb->lock);
    pthread_mutex_unlock(&old->lock);
    return (int)moved;
}

int tw_pull_timers(struct tw_wheel *w, unsigned to, unsigned from)
{
    if (to >= w->ncpus || from >= w->ncpus || to == from)
        return -EINVAL;
    struct tw_base *dst = &w->bases[to], *src = &w->bases[from];
    struct tw_base *first = to < from ? dst : src, *second = to < from ? src : dst;
    bool buggy = atomic_load(&w->bugs) & TW_BUG_PULL_ORDER;
    int moved = -ENODEV;

    if (buggy) {            /* seeded bug: local base first, whichever CPU that is */
        first = dst;
        second = src;
    }
    pthread_mutex_lock(&first->lock);
    if (!buggy)
        uld_lock_nested(&second->lock, 1);
    pthread_mutex_lock(&second->lock);
    if (atomic_load(&dst->online) && atomic_load(&src->online)) {
        moved = (int)tw_move_all(src, dst, atomic_load(&w->jiffies));
        dst->stats.pulled += (uint64_t)moved;
    }
    pthread_mutex_unlock(&second->lock);
    pthread_mutex_unlock(&first->lock);
    return moved;
}

unsigned tw_pending_count(struct tw_wheel *w, unsigned cpu)
{
    struct tw_base *b = &w->bases[cpu];
    pthread_mutex_lock(&b->lock);
    unsigned n = b->npending;
    pthread_mutex_unlock(&b->lock);
    return n;
}

void tw_get_stats(struct tw_wheel *w, struct tw_stats *out)
{
    *out = (struct tw_stats){0};
    for (unsigned i = 0; i < w->ncpus; i++) {
        struct tw_base *b = &w->bases[i];
        pthread_mutex_lock(&b->lock);
        out->armed += b->stats.armed;
        out->cancelled += b->stats.cancelled;
        out->fired += b->stats.fired;
        out->remote_fired += b->stats.remote_fired;
        out->migrated += b->stats.migrated;
        out->pulled += b->stats.pulled;
        out->early += b->stats.early;
        out->coarse += b->stats.coarse;
        pthread_mutex_unlock(&b->lock);
    }
}

void tw_set_seeded_bugs(struct tw_wheel *w, unsigned bugs)
{
    atomic_store(&w->bugs, bugs);
}
