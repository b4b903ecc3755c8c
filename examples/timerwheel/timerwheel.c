/*
 * timerwheel.c - timer bases, arming and cancelling, expiry and idle
 * (kernel/time/timer.c: enqueue_timer, detach_if_pending, lock_timer_base,
 * __mod_timer, collect_expired_timers, __run_timers, expire_timers,
 * call_timer_fn, timer_delete_sync, forward_timer_base).
 *
 * Locks: one mutex per base ("timer_base[N].lock", class timer_base.lock);
 * every function here holds at most one of them at a time and none while a
 * callback runs.  The callback runs inside the timer's pseudo-lock `map`.
 */
#define _GNU_SOURCE
#include "timerwheel_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ulockdep.h"

static char tw_base_class;

/* ---- bucket lists (base lock held) ------------------------------------ */

void tw_publish(struct tw_base *b)
{
    atomic_store(&b->next_pub, b->next_expiry);
}

void tw_enqueue(struct tw_base *b, struct tw_timer *t)
{
    unsigned idx = tw_wheel_index(t->expires, b->clk, &t->bexp);
    struct tw_timer **head = &b->vectors[idx];

    t->overdue = t->expires < b->clk;
    t->idx = (uint16_t)idx;
    t->next = *head;
    if (t->next)
        t->next->pprev = &t->next;
    *head = t;
    t->pprev = head;
    b->pending_map[idx / TW_LVL_SIZE] |= UINT64_C(1) << (idx % TW_LVL_SIZE);
    b->npending++;
    if (t->bexp < b->next_expiry) {
        b->next_expiry = t->bexp;
        tw_publish(b);
    }
}

void tw_detach(struct tw_base *b, struct tw_timer *t)
{
    *t->pprev = t->next;
    if (t->next)
        t->next->pprev = t->pprev;
    t->pprev = NULL;
    t->next = NULL;
    if (!b->vectors[t->idx])
        b->pending_map[t->idx / TW_LVL_SIZE] &= ~(UINT64_C(1) << (t->idx % TW_LVL_SIZE));
    b->npending--;
}

static int tw_detach_if_pending(struct tw_base *b, struct tw_timer *t)
{
    if (!t->pprev)
        return 0;
    tw_detach(b, t);
    return 1;
}

/* A lagging base catches up with now, but never past its next bucket. */
void tw_forward_base(struct tw_base *b, uint64_t now)
{
    if (now <= b->clk)
        return;
    b->clk = b->next_expiry > now ? now : b->next_expiry;
}

/* ---- which base a timer is on ------------------------------------------ */

/* Locks and returns t's base; retries while t moves (kernel: lock_timer_base). */
static struct tw_base *tw_lock_timer_base(struct tw_wheel *w, struct tw_timer *t)
{
    for (;;) {
        uint32_t tf = atomic_load(&t->flags);
        if (!(tf & TW_MIGRATING)) {
            struct tw_base *b = &w->bases[tf & TW_CPU_MASK];
            pthread_mutex_lock(&b->lock);
            if (atomic_load(&t->flags) == tf)
                return b;
            pthread_mutex_unlock(&b->lock);
        }
        sched_yield();
    }
}

/* ---- public: timers ------------------------------------------------------ */

void tw_timer_init_key(struct tw_timer *t, tw_fn fn, const char *name, const void *key)
{
    if (!name)
        name = "tw_timer";
    memset(t, 0, sizeof(*t));
    t->fn = fn;
    atomic_init(&t->flags, 0);
    uld_lock_init(&t->map, name, 0);
    uld_lock_set_class(&t->map, key, name);
    uld_lock_set_name(&t->map, name);
}

void tw_timer_destroy(struct tw_timer *t)
{
    uld_lock_destroy(&t->map);
}

int tw_mod_timer(struct tw_wheel *w, unsigned cpu, struct tw_timer *t, uint64_t expires)
{
    if (cpu >= w->ncpus || !atomic_load(&w->bases[cpu].online))
        return -ENODEV;
    struct tw_base *nb = &w->bases[cpu];
    struct tw_base *b = tw_lock_timer_base(w, t);
    int was = tw_detach_if_pending(b, t);

    /* Move to the local base, unless the callback runs on the old one now. */
    if (b != nb && b->running != t) {
        atomic_store(&t->flags, b->cpu | TW_MIGRATING);
        pthread_mutex_unlock(&b->lock);
        b = nb;
        pthread_mutex_lock(&b->lock);
        atomic_store(&t->flags, b->cpu);
    }
    tw_forward_base(b, atomic_load(&w->jiffies));
    t->expires = expires;
    tw_enqueue(b, t);
    b->stats.armed++;
    pthread_mutex_unlock(&b->lock);
    return was;
}

int tw_del_timer(struct tw_wheel *w, struct tw_timer *t)
{
    struct tw_base *b = tw_lock_timer_base(w, t);
    int was = tw_detach_if_pending(b, t);
    b->stats.cancelled += (uint64_t)was;
    pthread_mutex_unlock(&b->lock);
    return was;
}

int tw_del_timer_sync(struct tw_wheel *w, struct tw_timer *t)
{
    /* We may wait for the callback: depend on every lock it takes. */
    uld_acquire(&t->map, 0);
    uld_release(&t->map);
    for (;;) {
        struct tw_base *b = tw_lock_timer_base(w, t);
        if (b->running != t) {
            int was = tw_detach_if_pending(b, t);
            b->stats.cancelled += (uint64_t)was;
            pthread_mutex_unlock(&b->lock);
            return was;
        }
        pthread_mutex_unlock(&b->lock);
        sched_yield();
    }
}

bool tw_timer_pending(struct tw_wheel *w, struct tw_timer *t)
{
    struct tw_base *b = tw_lock_timer_base(w, t);
    bool pending = t->pprev != NULL;
    pthread_mutex_unlock(&b->lock);
    return pending;
}

/* ---- expiry -------------------------------------------------------------- */

/* Moves every bucket due at b->clk to heads[]; returns how many (kernel: collect_expired_timers). */
static unsigned tw_collect(struct tw_base *b, struct tw_timer **heads)
{
    uint64_t clk = b->clk;
    unsigned n = 0;

    for (unsigned lvl = 0; lvl < TW_LVL_DEPTH; lvl++) {
        unsigned idx = TW_LVL_OFFS(lvl) + (unsigned)(clk & TW_LVL_MASK);
        uint64_t bit = UINT64_C(1) << (idx % TW_LVL_SIZE);
        if (b->pending_map[lvl] & bit) {
            b->pending_map[lvl] &= ~bit;
            heads[n] = b->vectors[idx];
            b->vectors[idx] = NULL;
            heads[n]->pprev = &heads[n];
            n++;
        }
        if (clk & TW_LVL_CLK_MASK)   /* coarser levels only on their boundaries */
            break;
        clk >>= TW_LVL_CLK_SHIFT;
    }
    return n;
}

/* Bookkeeping the wheel's promise: never early, at most one granule late. */
static void tw_check_expiry(struct tw_base *b, const struct tw_timer *t, uint64_t at)
{
    if (at < t->expires)
        b->stats.early++;
    else if (!t->overdue && at - t->expires > TW_LVL_GRAN(tw_index_level(t->idx)))
        b->stats.coarse++;
}

/* Runs the timers on *head, dropping the lock around each callback (kernel: expire_timers). */
static unsigned tw_expire_list(struct tw_base *b, struct tw_timer **head, uint64_t at)
{
    unsigned n = 0;
    while (*head) {
        struct tw_timer *t = *head;
        tw_fn fn = t->fn;
        tw_check_expiry(b, t, at);
        tw_detach(b, t);
        b->running = t;
        b->stats.fired++;
        pthread_mutex_unlock(&b->lock);
        uld_acquire(&t->map, 0);      /* kernel: call_timer_fn's lock_map_acquire */
        fn(t);
        uld_release(&t->map);
        pthread_mutex_lock(&b->lock);
        b->running = NULL;
        n++;
    }
    return n;
}

/* Runs every bucket due up to now (kernel: __run_timers).  Lock held, b->expiring set. */
static unsigned tw_run_base(struct tw_base *b, uint64_t now)
{
    struct tw_timer *heads[TW_LVL_DEPTH];
    unsigned fired = 0;

    while (now >= b->clk && now >= b->next_expiry) {
        b->clk = b->next_expiry;
        unsigned n = tw_collect(b, heads);
        uint64_t at = b->clk++;
        b->next_expiry = tw_next_expiry_of(b->pending_map, b->clk);
        tw_publish(b);
        while (n--)
            fired += tw_expire_list(b, &heads[n], at);
    }
    return fired;
}

static unsigned tw_expire_base(struct tw_base *b, uint64_t now, bool remote)
{
    unsigned fired = 0;
    pthread_mutex_lock(&b->lock);
    if (atomic_load(&b->online) && !b->expiring && (!remote || atomic_load(&b->is_idle))) {
        b->expiring = true;
        fired = tw_run_base(b, now);
        b->expiring = false;
        if (remote)
            b->stats.remote_fired += fired;
    }
    pthread_mutex_unlock(&b->lock);
    return fired;
}

unsigned tw_run_cpu(struct tw_wheel *w, unsigned cpu)
{
    uint64_t now = atomic_load(&w->jiffies);
    unsigned fired = tw_expire_base(&w->bases[cpu], now, false);

    /* Do the idle CPUs' work instead of waking them (kernel: timer migration). */
    for (unsigned i = 0; i < w->ncpus; i++) {
        struct tw_base *b = &w->bases[i];
        if (i != cpu && atomic_load(&b->is_idle) && atomic_load(&b->next_pub) <= now)
            fired += tw_expire_base(b, now, true);
    }
    return fired;
}

uint64_t tw_idle_enter(struct tw_wheel *w, unsigned cpu)
{
    struct tw_base *b = &w->bases[cpu];
    pthread_mutex_lock(&b->lock);
    atomic_store(&b->is_idle, true);
    uint64_t next = b->next_expiry;
    pthread_mutex_unlock(&b->lock);
    return next;
}

void tw_idle_exit(struct tw_wheel *w, unsigned cpu)
{
    struct tw_base *b = &w->bases[cpu];
    pthread_mutex_lock(&b->lock);
    atomic_store(&b->is_idle, false);
    if (!b->expiring)
        tw_forward_base(b, atomic_load(&w->jiffies));
    pthread_mutex_unlock(&b->lock);
}

bool tw_base_idle(struct tw_wheel *w, unsigned cpu)
{
    return atomic_load(&w->bases[cpu].is_idle);
}

/* ---- the wheel ------------------------------------------------------------ */

uint64_t tw_jiffies(const struct tw_wheel *w)
{
    return atomic_load(&w->jiffies);
}

void tw_advance(struct tw_wheel *w, uint64_t ticks)
{
    atomic_fetch_add(&w->jiffies, ticks);
}

struct tw_wheel *tw_create(unsigned ncpus)
{
    if (ncpus == 0 || ncpus > TW_MAX_CPUS)
        return NULL;
    struct tw_wheel *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->ncpus = ncpus;
    for (unsigned i = 0; i < ncpus; i++) {
        struct tw_base *b = &w->bases[i];
        char name[32];
        pthread_mutex_init(&b->lock, NULL);
        uld_lock_set_class(&b->lock, &tw_base_class, "timer_base.lock");
        snprintf(name, sizeof(name), "timer_base[%u].lock", i);
        uld_lock_set_name(&b->lock, name);
        b->cpu = i;
        b->next_expiry = TW_NEXT_MAX_DELTA;
        atomic_init(&b->next_pub, TW_NEXT_MAX_DELTA);
        atomic_init(&b->online, true);
    }
    return w;
}

void tw_destroy(struct tw_wheel *w)
{
    if (!w)
        return;
    for (unsigned i = 0; i < w->ncpus; i++)
        pthread_mutex_destroy(&w->bases[i].lock);
    free(w);
}
