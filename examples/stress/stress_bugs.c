/*
 * stress_bugs.c - the seeded lock-order bugs and the phase that runs them.
 *
 * Each bug is a real path through the libraries and the driver with one
 * wrong lock usage.  ulockdep reports a *potential* deadlock as soon as the
 * dependency graph closes a cycle, so every scenario runs its two sides one
 * after the other, never concurrently: the run shows the bug without ever
 * hanging.  Bug paths are switched on (W.active_bugs) only while their
 * scenario runs, after the stress phase, with the workers stopped.
 *
 * Locks: as in stress.h, plus each bug's one inverted nesting.
 */
#define _GNU_SOURCE
#include "stress.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ulockdep.h"

struct bug_info {
    const char *name, *kind, *locks, *desc;
};

/* Lock names as ulockdep prints them (class names for class-order-inversion). */
static const struct bug_info bug_table[BUG_COUNT] = {
    [BUG_HOTPLUG_CALLBACK] = {"hotplug-callback-inversion", "lock-order-inversion",
        "cpu_hotplug_lock,stress_config_lock",
        "a BP hotplug callback takes stress_config_lock, which the config writer holds "
        "while it calls cpus_read_lock()"},
    [BUG_TIMER_PULL_ORDER] = {"timer-pull-order", "lock-order-inversion",
        "timer_base[0].lock,timer_base[1].lock",
        "pulling timers locks the local base first: CPU0 pulling from CPU1 and CPU1 "
        "pulling from CPU0 nest the two bases in opposite orders"},
    [BUG_TEARDOWN_WAITS_AP] = {"teardown-waits-for-ap", "lock-order-inversion",
        "stress_mgmt_lock,cpuhp_state-down",
        "the controller holds stress_mgmt_lock while it waits for a CPU's AP thread, "
        "whose teardown callback takes stress_mgmt_lock"},
    [BUG_TIMER_DELETE_SYNC] = {"timer-delete-sync", "lock-order-inversion",
        "stress_sync_lock,stress_sync_timer",
        "timer_delete_sync() is called with stress_sync_lock held while the timer's "
        "callback takes stress_sync_lock"},
    [BUG_SIGNAL_UNSAFE] = {"signal-unsafe-stats", "signal-unsafe-lock", "stress_stats_lock",
        "the SIGUSR1 statistics handler takes stress_stats_lock, which normal context "
        "takes with SIGUSR1 unblocked"},
    [BUG_PERCPU_CLASS_ORDER] = {"percpu-class-order", "class-order-inversion",
        "stress_cpu.lock,stress_rq.lock",
        "CPU1 drains its kick queue (stress_rq then stress_cpu) while CPU0 kicks CPU1 "
        "holding its own stress_cpu lock (stress_cpu then stress_rq)"},
};

void stress_list_bugs(void)
{
    for (int b = 0; b < BUG_COUNT; b++)
        printf("%s\t%s\t%s\t%s\n", bug_table[b].name, bug_table[b].kind, bug_table[b].locks,
               bug_table[b].desc);
}

int stress_bug_lookup(const char *name)
{
    if (!strcmp(name, "all"))
        return BUG_COUNT;
    for (int b = 0; b < BUG_COUNT; b++)
        if (!strcmp(name, bug_table[b].name))
            return b;
    return -1;
}

const char *stress_bug_name(int bug)
{
    return bug >= 0 && bug < BUG_COUNT ? bug_table[bug].name : "?";
}

bool stress_bug_active(enum stress_bug b)
{
    return atomic_load(&W.active_bugs) & (1u << b);
}

void stress_set_active_bugs(unsigned mask)
{
    atomic_store(&W.active_bugs, mask);
}

/* ---- SIGUSR1: "dump statistics" -------------------------------------------- */

static volatile sig_atomic_t stats_requested;
static uint64_t stats_dumps;     /* stress_stats_lock */

static void on_sigusr1(int sig)
{
    (void)sig;
    if (stress_bug_active(BUG_SIGNAL_UNSAFE)) {
        pthread_mutex_lock(&stress_stats_lock);    /* seeded bug: not async-signal-safe */
        stats_dumps++;
        pthread_mutex_unlock(&stress_stats_lock);
    } else {
        stats_requested = 1;                       /* the right way: a flag */
    }
}

void stress_signal_setup(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigusr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
}

/* ---- scenarios ----------------------------------------------------------------- */

static void bring(unsigned cpu, bool up)
{
    int ret = up ? hp_cpu_up(W.hp, cpu) : hp_cpu_down(W.hp, cpu);
    if (ret != 0)
        stress_violation("bug phase: cpu%u %s failed (%d)", cpu, up ? "up" : "down", ret);
}

static void *config_writer(void *arg)
{
    (void)arg;
    /* Seeded bug: apply the setting live to every online CPU under the config lock. */
    pthread_mutex_lock(&stress_config_lock);
    W.config_value++;
    hp_read_lock(W.hp);
    for (unsigned c = 0; c < W.opt.ncpus; c++) {
        if (!hp_cpu_online(W.hp, c))
            continue;
        pthread_mutex_lock(&W.cpu[c].lock);
        W.cpu[c].setting = (int)W.config_value;
        pthread_mutex_unlock(&W.cpu[c].lock);
    }
    hp_read_unlock(W.hp);
    pthread_mutex_unlock(&stress_config_lock);
    return NULL;
}

static void run_in_thread(void *(*fn)(void *), void *arg, const char *name)
{
    pthread_t th;
    pthread_create(&th, NULL, fn, arg);
    pthread_setname_np(th, name);
    pthread_join(th, NULL);
}

/* cpu_hotplug_lock -> stress_config_lock (callback), then the reverse (writer). */
static void bug_hotplug_callback(void)
{
    bring(1, false);
    bring(1, true);                 /* cb_config_up takes stress_config_lock */
    run_in_thread(config_writer, NULL, "config-writer");
}

static void *puller(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    hp_read_lock(W.hp);
    if (tw_pull_timers(W.tw, cpu, 1 - cpu) < 0)
        stress_violation("bug phase: pull to cpu%u failed", cpu);
    hp_read_unlock(W.hp);
    return NULL;
}

static void bug_timer_pull_order(void)
{
    tw_set_seeded_bugs(W.tw, TW_BUG_PULL_ORDER);
    run_in_thread(puller, (void *)(uintptr_t)0, "worker/0");   /* base0 -> base1 */
    run_in_thread(puller, (void *)(uintptr_t)1, "worker/1");   /* base1 -> base0 */
    tw_set_seeded_bugs(W.tw, 0);
}

/* AP callback takes stress_mgmt_lock (not held now); later the BP waits holding it. */
static void bug_teardown_waits_ap(void)
{
    bring(1, false);                                  /* cpuhp_state-down -> mgmt */
    pthread_mutex_lock(&stress_mgmt_lock);
    bring(1, true);                                   /* mgmt -> cpuhp_state-down */
    pthread_mutex_unlock(&stress_mgmt_lock);
}

static struct tw_timer stress_sync_timer;
static _Atomic int sync_fired;

static void sync_timer_fn(struct tw_timer *t)
{
    (void)t;
    pthread_mutex_lock(&stress_sync_lock);
    atomic_fetch_add(&sync_fired, 1);
    pthread_mutex_unlock(&stress_sync_lock);
}

static void bug_timer_delete_sync(void)
{
    tw_timer_init(&stress_sync_timer, sync_timer_fn, "stress_sync_timer");
    hp_read_lock(W.hp);
    tw_mod_timer(W.tw, 0, &stress_sync_timer, tw_jiffies(W.tw));
    tw_advance(W.tw, 2);
    tw_run_cpu(W.tw, 0);              /* callback: stress_sync_timer -> stress_sync_lock */
    hp_read_unlock(W.hp);
    if (atomic_load(&sync_fired) != 1)
        stress_violation("bug phase: the sync timer did not fire");
    pthread_mutex_lock(&stress_sync_lock);
    tw_del_timer_sync(W.tw, &stress_sync_timer);   /* stress_sync_lock -> the timer */
    pthread_mutex_unlock(&stress_sync_lock);
    tw_timer_destroy(&stress_sync_timer);
}

static void bug_signal_unsafe(void)
{
    pthread_mutex_lock(&stress_stats_lock);       /* normal context, SIGUSR1 unblocked */
    stats_dumps++;
    pthread_mutex_unlock(&stress_stats_lock);
    raise(SIGUSR1);                               /* delivered now: the lock is free */
    pthread_mutex_lock(&stress_stats_lock);
    uint64_t n = stats_dumps;
    pthread_mutex_unlock(&stress_stats_lock);
    if (n != 2)
        stress_violation("bug phase: the signal handler did not run");
}

static void bug_percpu_class_order(void)
{
    stress_drain_kicks(1);                        /* CPU1: stress_rq[1] -> stress_cpu[1] */
    pthread_mutex_lock(&W.cpu[0].lock);           /* CPU0: stress_cpu[0] -> stress_rq[1] */
    stress_kick(1);
    pthread_mutex_unlock(&W.cpu[0].lock);
    stress_drain_kicks(1);
}

static void (*const bug_fn[BUG_COUNT])(void) = {
    [BUG_HOTPLUG_CALLBACK] = bug_hotplug_callback,
    [BUG_TIMER_PULL_ORDER] = bug_timer_pull_order,
    [BUG_TEARDOWN_WAITS_AP] = bug_teardown_waits_ap,
    [BUG_TIMER_DELETE_SYNC] = bug_timer_delete_sync,
    [BUG_SIGNAL_UNSAFE] = bug_signal_unsafe,
    [BUG_PERCPU_CLASS_ORDER] = bug_percpu_class_order,
};

/* Runs each selected scenario alone, after the stress phase (workers stopped). */
void stress_run_bugs(void)
{
    if (hp_cpu_state(W.hp, 1) != HP_ONLINE)
        bring(1, true);
    for (int b = 0; b < BUG_COUNT; b++) {
        if (!(W.opt.bugs & (1u << b)))
            continue;
        if (!W.opt.quiet)
            printf("bug phase: %s (%s)\n", bug_table[b].name, bug_table[b].kind);
        stress_set_active_bugs(1u << b);
        bug_fn[b]();
        stress_set_active_bugs(0);
    }
}
