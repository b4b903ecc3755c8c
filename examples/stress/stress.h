/*
 * stress.h - the stress driver's shared state: the hotplug machine and the
 * timer wheel wired together like the kernel (the wheel registers hotplug
 * states), worker threads standing in for each CPU's normal work, and the
 * bookkeeping the invariant checks read.
 *
 * Lock hierarchy of the driver (outermost first; see examples/README.md):
 *   stress_mgmt_lock        controller and admin: one management action at a time
 *     cpu_hotplug_lock      (hotplug library)
 *       cpuhp_state_mutex   (hotplug library, registration)
 *         cpuhp_state-up/-down  pseudo-locks around AP callbacks
 *           stress_cpu[N].lock, stress_dev[k].lock, stress_dyn_lock   leaves
 *       timer_base[N].lock  (timer wheel) -> timer_base[M].lock/1 (migration, pull)
 *       <timer pseudo-lock> -> stress_cpu[N].lock (callback)
 *       stress_rq[N].lock -> stress_cpu[N].lock (same CPU only)
 *   stress_config_lock, stress_stats_lock   leaves, never nested
 */
#ifndef STRESS_H
#define STRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include "hotplug.h"
#include "timerwheel.h"

#define STRESS_TIMERS_PER_CPU 48
#define STRESS_MAX_DEVS 4
#define STRESS_NSTATES 5           /* tracked single-instance states */

/* Bugs that can be seeded (stress_bugs.c). */
enum stress_bug {
    BUG_HOTPLUG_CALLBACK,   /* hotplug callback vs. cpus_read_lock() user */
    BUG_TIMER_PULL_ORDER,   /* two bases in inconsistent order */
    BUG_TEARDOWN_WAITS_AP,  /* BP holds L and waits for the AP whose callback takes L */
    BUG_TIMER_DELETE_SYNC,  /* del_timer_sync under a lock the callback takes */
    BUG_SIGNAL_UNSAFE,      /* a lock taken in a signal handler and in normal context */
    BUG_PERCPU_CLASS_ORDER, /* two per-CPU lock kinds nested both ways on different CPUs */
    BUG_COUNT
};

struct stress_opts {
    unsigned ncpus;
    double seconds;          /* 0: no time bound */
    unsigned long iterations;/* bound on hotplug operations, if iterations_given */
    bool iterations_given;
    uint64_t seed;
    unsigned bugs;           /* 1u << enum stress_bug */
    bool quiet;
};

/* A hotplug state whose callbacks the driver tracks for symmetry. */
struct stress_state {
    const char *name;
    unsigned bit;            /* in stress_cpu.up_mask */
    _Atomic int hp_state;    /* hotplug state number, -1 while unregistered */
};

struct stress_timer {
    struct tw_timer t;
    unsigned owner;                  /* the worker (CPU) that arms and cancels it */
    _Atomic int64_t outstanding;     /* arms - cancels - fires: never below 0 */
};

struct stress_cpu {
    pthread_mutex_t lock;            /* "stress_cpu[N].lock": the fields below */
    uint64_t up_mask;                /* tracked states whose startup ran */
    uint64_t kicks_handled, own_fired;
    int setting;                     /* applied copy of the shadowed config */
    pthread_mutex_t rq_lock;         /* "stress_rq[N].lock": kicks */
    unsigned kicks;
    pthread_t worker;
    uint64_t rng;                    /* the worker's own */
};

struct stress_dev {
    struct hp_node node;
    pthread_mutex_t lock;            /* "stress_dev[k].lock": cpus */
    uint64_t cpus;                   /* CPUs whose startup ran for this device */
    int id;
    bool live;                       /* instance added (stress_mgmt_lock) */
};

struct stress_world {
    struct stress_opts opt;
    struct hp_machine *hp;
    struct tw_wheel *tw;
    struct stress_cpu cpu[HP_MAX_CPUS];
    struct stress_timer *timers;
    struct stress_dev devs[STRESS_MAX_DEVS];
    struct stress_state *states[STRESS_NSTATES];
    int dev_state;                   /* the multi-instance state */
    uint64_t rng;                    /* controller's and admin's, under stress_mgmt_lock */
    _Atomic bool stop;
    _Atomic bool registering;        /* admin is (un)registering: not a walk */
    _Atomic unsigned active_bugs;    /* bug paths switched on right now */
    _Atomic int config_shadow;       /* written from "outside", applied at a safe state */
    _Atomic uint64_t violations;
    _Atomic uint64_t cycles, failed_ops, injected, dyn_regs, dev_adds, config_writes;
    _Atomic uint64_t pulls, kicks, signals;
    uint64_t config_value;           /* stress_config_lock */
};

extern struct stress_world W;
extern pthread_mutex_t stress_mgmt_lock, stress_config_lock, stress_stats_lock;
extern pthread_mutex_t stress_dyn_lock, stress_sync_lock;

/* stress_world.c */
int stress_world_init(void);
void stress_world_run(void);
int stress_world_finish(void);      /* drain, final checks; returns violations */
void stress_world_destroy(void);
void stress_print_summary(FILE *out);
void stress_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t stress_rand(uint64_t *s);
void stress_drain_kicks(unsigned cpu);
void stress_kick(unsigned cpu);
int stress_pick_target(unsigned dying);

/* stress_bugs.c */
void stress_list_bugs(void);
int stress_bug_lookup(const char *name);   /* -1 if unknown; BUG_COUNT for "all" */
const char *stress_bug_name(int bug);
void stress_run_bugs(void);
void stress_signal_setup(void);
bool stress_bug_active(enum stress_bug b);
void stress_set_active_bugs(unsigned mask);

#endif /* STRESS_H */
