/*
 * hotplug.h - a userspace model of the Linux CPU-hotplug state machine
 * (kernel/cpu.c): simulated CPUs walk an ordered table of states, each with
 * optional startup/teardown callbacks, between HP_OFFLINE and HP_ONLINE.
 *
 * States up to HP_BRINGUP_CPU run on the controlling thread (the "BP", boot
 * processor side, PREPARE-like); later states run on the target CPU's own
 * thread ("cpuhp/N", the "AP" side, STARTING/ONLINE-like).  Teardown runs
 * the states in exactly the reverse order; a failing callback rolls the CPU
 * back through the regular callbacks of the states already passed.
 *
 * Locking (see examples/README.md for the whole hierarchy):
 *   cpu_hotplug_lock    pthread rwlock: writer = a hotplug operation,
 *                       readers = hp_read_lock() users and (de)registration
 *   cpuhp_state_mutex   serialises (de)registration; inside the read lock
 *   cpuhp[N].lock       per-CPU handshake with the AP thread; a leaf
 *   cpuhp_state-up/-down  validator pseudo-locks: "an AP callback is running"
 * Callbacks run with no library lock held except the hotplug lock (BP) or
 * the pseudo-lock (AP).  They must not call hp_read_lock() or any function
 * of this API: the operation that invoked them holds the hotplug lock.
 */
#ifndef HOTPLUG_H
#define HOTPLUG_H

#include <stdbool.h>
#include <stdint.h>

#define HP_MAX_CPUS 64
#define HP_BP_DYN_SLOTS 4
#define HP_AP_DYN_SLOTS 8

/* The state table, in startup order (kernel: enum cpuhp_state). */
enum hp_state {
    HP_OFFLINE = 0,
    HP_CREATE_THREADS,   /* BP, built in: reset the AP thread's bookkeeping */
    HP_TIMERS_PREPARE,   /* BP, named slot: the timer wheel's prepare/dead */
    HP_BP_PREPARE_DYN,   /* BP, dynamic slots */
    HP_BP_PREPARE_DYN_END = HP_BP_PREPARE_DYN + HP_BP_DYN_SLOTS,
    HP_BRINGUP_CPU,      /* BP, built in: the CPU becomes alive / dead */
    HP_AP_STARTING,      /* AP, named slot: first state run by the CPU itself */
    HP_AP_ONLINE_DYN,    /* AP, dynamic slots */
    HP_AP_ONLINE_DYN_END = HP_AP_ONLINE_DYN + HP_AP_DYN_SLOTS,
    HP_ONLINE,           /* AP, built in: the CPU is online for everybody */
    HP_NR_STATES
};

/* Last state run by the controlling thread; every later one runs on the AP. */
#define HP_BP_LAST HP_BRINGUP_CPU

struct hp_machine;

/* Instance hook of a multi-instance state; embed it in the instance. */
struct hp_node {
    struct hp_node *next;
};

typedef int (*hp_single_fn)(unsigned cpu, void *data);
typedef int (*hp_multi_fn)(unsigned cpu, struct hp_node *node);

/* Counters, read with hp_get_stats(). */
struct hp_stats {
    uint64_t ups, downs;          /* successful operations */
    uint64_t failed;              /* operations that failed and were rolled back */
    uint64_t injected;            /* failures that came from fault injection */
    uint64_t rollback_errors;     /* callbacks that failed during a rollback */
    uint64_t ap_requests;         /* hand-offs to an AP thread */
};

/* Creates ncpus (1..HP_MAX_CPUS) CPUs; CPU 0 (the boot CPU) comes up online. */
struct hp_machine *hp_create(unsigned ncpus);
/* Stops the AP threads.  No callbacks run: take CPUs down first if needed. */
void hp_destroy(struct hp_machine *hp);
unsigned hp_num_cpus(const struct hp_machine *hp);

/*
 * Hotplug operations (take the hotplug lock as writer).  Return 0, or
 * -EINVAL (bad cpu/state), -EBUSY (the last online CPU), or the error of
 * the callback that failed, after the CPU was rolled back to where it was.
 */
int hp_cpu_up(struct hp_machine *hp, unsigned cpu);
int hp_cpu_down(struct hp_machine *hp, unsigned cpu);
int hp_cpu_set_target(struct hp_machine *hp, unsigned cpu, int target);

/* Lock-free snapshots; stable while the hotplug lock is held. */
int hp_cpu_state(const struct hp_machine *hp, unsigned cpu);
bool hp_cpu_online(const struct hp_machine *hp, unsigned cpu);
unsigned hp_num_online(const struct hp_machine *hp);

/* cpus_read_lock(): CPUs stay where they are until hp_read_unlock(). Not recursive. */
void hp_read_lock(struct hp_machine *hp);
void hp_read_unlock(struct hp_machine *hp);

/* The CPU whose AP thread runs the caller, or -1 (not an AP thread). */
int hp_this_cpu(void);

/*
 * Fault injection, written from "outside" like the kernel's
 * /sys/devices/system/cpu/cpuN/hotplug/fail: the value goes to a shadow
 * variable and is applied when the next operation on that CPU starts (a
 * safe point: nothing is walking the CPU's states).  The callback of
 * `state` then fails once with -EAGAIN, in whichever direction reaches it
 * first.  state -1 clears.
 */
int hp_inject_fail(struct hp_machine *hp, unsigned cpu, int state);

/*
 * Registration.  `state` is a named slot (HP_TIMERS_PREPARE, HP_AP_STARTING)
 * or a dynamic range start (HP_BP_PREPARE_DYN, HP_AP_ONLINE_DYN: a free slot
 * is picked).  With invoke, startup runs on every CPU already past the
 * state; if one fails, the CPUs done are torn down and the error returned.
 * Returns the state number used, or -errno.
 */
int hp_setup_state(struct hp_machine *hp, int state, const char *name, hp_single_fn startup,
                   hp_single_fn teardown, void *data, bool invoke);
int hp_setup_multi_state(struct hp_machine *hp, int state, const char *name,
                         hp_multi_fn startup, hp_multi_fn teardown);
/* With invoke, teardown runs on every CPU past the state first.  -EBUSY: instances left. */
int hp_remove_state(struct hp_machine *hp, int state, bool invoke);
int hp_state_add_instance(struct hp_machine *hp, int state, struct hp_node *node,
                          bool invoke);
int hp_state_remove_instance(struct hp_machine *hp, int state, struct hp_node *node,
                             bool invoke);
const char *hp_state_name(const struct hp_machine *hp, int state);

void hp_get_stats(const struct hp_machine *hp, struct hp_stats *out);

#endif /* HOTPLUG_H */
