/*
 * timerwheel.h - a userspace model of the Linux hierarchical timer wheel
 * after its 2016 rework (kernel/time/timer.c): one timer base per CPU, each
 * a wheel of 8 levels x 64 buckets, level n 8^n jiffies per bucket, no
 * cascading.  Arming and cancelling are O(1); a timer is armed on the
 * caller's CPU; an idle CPU's due timers are run by a busy CPU; when a CPU
 * dies its timers migrate to a live one.
 *
 * Locking: each base has its own mutex "timer_base[N].lock"; no two are
 * ever held together except in tw_cpu_dead() (dead base, then the live one
 * nested at subclass 1) and tw_pull_timers() (lower CPU first, then the
 * higher nested at subclass 1).  Callbacks run with no base lock held,
 * inside the timer's validator pseudo-lock, which tw_del_timer_sync() also
 * acquires: "del_timer_sync() while holding L, callback takes L" shows up as
 * a lock-order cycle before it ever deadlocks.
 *
 * Callers guarantee that `cpu` arguments name online CPUs that stay online
 * for the duration of the call (hold the hotplug read lock), and that
 * tw_cpu_prepare()/tw_cpu_dead() calls are serialised (the hotplug lock).
 */
#ifndef TIMERWHEEL_H
#define TIMERWHEEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define TW_MAX_CPUS 64

struct tw_timer;
typedef void (*tw_fn)(struct tw_timer *t);

/* Embed in the owner; initialise with tw_timer_init().  Fields are private. */
struct tw_timer {
    struct tw_timer *next, **pprev; /* bucket list; pprev == NULL: not pending */
    uint64_t expires;
    uint64_t bexp;                  /* when its bucket expires */
    tw_fn fn;
    _Atomic uint32_t flags;         /* base CPU | TW_MIGRATING */
    uint16_t idx;                   /* bucket while pending */
    bool overdue;                   /* was already due when queued */
    char map;                       /* the validator's pseudo-lock (kernel: lockdep_map) */
};

struct tw_stats {
    uint64_t armed, cancelled, fired;
    uint64_t remote_fired;          /* run by a busy CPU for an idle one */
    uint64_t migrated;              /* moved off a dead CPU */
    uint64_t pulled;                /* moved by tw_pull_timers() */
    uint64_t early;                 /* fired before expiry: must stay 0 */
    uint64_t coarse;                /* fired later than its level allows: must stay 0 */
};

struct tw_wheel;

/* All bases start online at jiffy 0. */
struct tw_wheel *tw_create(unsigned ncpus);
void tw_destroy(struct tw_wheel *w);

/* The wheel's clock; the time keeper advances it, ticks run the bases up to it. */
uint64_t tw_jiffies(const struct tw_wheel *w);
void tw_advance(struct tw_wheel *w, uint64_t ticks);

/*
 * name: the validator's name for the timer's pseudo-lock; its class is the
 * call site, as with the kernel's timer_setup().  A timer must not be freed
 * by its own callback; call tw_timer_destroy() before freeing it.
 */
#define tw_timer_init(t, fn, name)                          \
    do {                                                    \
        static const char tw_timer_class_key_;              \
        tw_timer_init_key((t), (fn), (name), &tw_timer_class_key_); \
    } while (0)
void tw_timer_init_key(struct tw_timer *t, tw_fn fn, const char *name, const void *key);
void tw_timer_destroy(struct tw_timer *t);

/*
 * Arms t to fire at jiffy `expires` on cpu's base (moving it there unless
 * its callback is running right now).  Returns 1 if t was pending (it is
 * re-armed), 0 if not, -ENODEV if cpu's base is offline.
 */
int tw_mod_timer(struct tw_wheel *w, unsigned cpu, struct tw_timer *t, uint64_t expires);
/* 1 if t was pending and is now cancelled, 0 if it was not pending. */
int tw_del_timer(struct tw_wheel *w, struct tw_timer *t);
/* As tw_del_timer(), and the callback is not running on return (kernel: timer_delete_sync). */
int tw_del_timer_sync(struct tw_wheel *w, struct tw_timer *t);
bool tw_timer_pending(struct tw_wheel *w, struct tw_timer *t);

/*
 * cpu's tick (timer softirq): runs its base's due timers, then those of idle
 * bases that are due, so idle CPUs need not wake.  Returns timers run.
 */
unsigned tw_run_cpu(struct tw_wheel *w, unsigned cpu);
/* cpu stops/starts ticking.  Enter returns the jiffy the next timer is due. */
uint64_t tw_idle_enter(struct tw_wheel *w, unsigned cpu);
void tw_idle_exit(struct tw_wheel *w, unsigned cpu);
bool tw_base_idle(struct tw_wheel *w, unsigned cpu);

/* Hotplug: the base comes up (kernel: timers_prepare_cpu); idempotent. */
int tw_cpu_prepare(struct tw_wheel *w, unsigned cpu);
/* cpu is dead: its base goes offline, its timers move to `to` (kernel: timers_dead_cpu). */
int tw_cpu_dead(struct tw_wheel *w, unsigned cpu, unsigned to);
bool tw_cpu_online(struct tw_wheel *w, unsigned cpu);
/* Moves from's pending timers to `to` (both online).  Returns how many moved. */
int tw_pull_timers(struct tw_wheel *w, unsigned to, unsigned from);
/* Pending timers on cpu's base (queued, not running). */
unsigned tw_pending_count(struct tw_wheel *w, unsigned cpu);

void tw_get_stats(struct tw_wheel *w, struct tw_stats *out);

/*
 * Showcase only: switch on a known-wrong variant of a path so the validator
 * has something to find.  TW_BUG_PULL_ORDER: tw_pull_timers() locks its own
 * base first and the other one second, without the nesting annotation.
 */
#define TW_BUG_PULL_ORDER 0x1u
void tw_set_seeded_bugs(struct tw_wheel *w, unsigned bugs);

#endif /* TIMERWHEEL_H */
