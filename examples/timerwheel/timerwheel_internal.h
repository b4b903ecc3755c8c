/*
 * timerwheel_internal.h - the per-CPU timer base, shared by timerwheel.c
 * (arming, cancelling, expiry, idle) and timerwheel_migrate.c (hotplug,
 * migration, statistics).
 *
 * Everything in struct tw_base is protected by its `lock`, except the
 * atomics, which are written under the lock and read without it:
 *   online, is_idle, next_pub (a busy CPU peeks at idle bases).
 * A timer's `flags` (which base it is on) changes only with that base's
 * lock held, and with the new base's lock held too when it moves.
 */
#ifndef TIMERWHEEL_INTERNAL_H
#define TIMERWHEEL_INTERNAL_H

#include "timerwheel.h"
#include "timerwheel_math.h"

#include <pthread.h>

#define TW_CPU_MASK 0xffu
#define TW_MIGRATING 0x100u        /* moving between bases: lockers retry */

struct tw_base {
    pthread_mutex_t lock;          /* "timer_base[N].lock" */
    unsigned cpu;
    uint64_t clk;                  /* next jiffy this base will run */
    uint64_t next_expiry;          /* earliest bucket (a lower bound) */
    _Atomic uint64_t next_pub;     /* next_expiry, for lock-free peeking */
    _Atomic bool online, is_idle;
    bool expiring;                 /* a thread runs its timers (lock may be dropped) */
    struct tw_timer *running;      /* callback in progress */
    unsigned npending;
    uint64_t pending_map[TW_LVL_DEPTH];
    struct tw_timer *vectors[TW_WHEEL_SIZE];
    struct tw_stats stats;
};

struct tw_wheel {
    _Atomic uint64_t jiffies;
    unsigned ncpus;
    _Atomic unsigned bugs;
    struct tw_base bases[TW_MAX_CPUS];
};

/* timerwheel.c, for timerwheel_migrate.c; base lock held. */
void tw_enqueue(struct tw_base *b, struct tw_timer *t);
void tw_detach(struct tw_base *b, struct tw_timer *t);
void tw_forward_base(struct tw_base *b, uint64_t now);
void tw_publish(struct tw_base *b);

#endif /* TIMERWHEEL_INTERNAL_H */
