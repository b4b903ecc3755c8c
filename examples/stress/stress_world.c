/*
 * stress_world.c - the stress run: the timer wheel registered as hotplug
 * states (prepare on the way up, migrate on the way down), per-CPU worker
 * threads arming and cancelling timers under the hotplug read lock, an
 * admin thread (un)registering dynamic states and device instances, a
 * controller cycling random CPUs offline and online with injected
 * failures, and the invariant checks.
 *
 * Locks: see stress.h for the hierarchy.  Management actions (controller,
 * admin) hold stress_mgmt_lock; workers hold cpu_hotplug_lock for reading
 * while they act as their CPU; callbacks take only leaf locks.
 */
#define _GNU_SOURCE
#include "stress.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ulockdep.h"

struct stress_world W;
pthread_mutex_t stress_mgmt_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t stress_config_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t stress_stats_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t stress_dyn_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t stress_sync_lock = PTHREAD_MUTEX_INITIALIZER;

static char stress_cpu_class, stress_rq_class, stress_dev_class;
static uint64_t dyn_calls;     /* stress_dyn_lock */
static pthread_t clock_thread, admin_thread;

static struct stress_state ss_timers = {"timers:prepare", 0, -1};
static struct stress_state ss_config = {"stress:config", 1, -1};
static struct stress_state ss_starting = {"stress:starting", 2, -1};
static struct stress_state ss_online = {"stress:online", 3, -1};
static struct stress_state ss_dyn = {"stress:dyn", 4, -1};

#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))

uint64_t stress_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

void stress_violation(const char *fmt, ...)
{
    va_list ap;
    atomic_fetch_add(&W.violations, 1);
    va_start(ap, fmt);
    fprintf(stderr, "uld_stress: INVARIANT VIOLATED: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void sleep_us(unsigned us)
{
    struct timespec ts = {0, (long)us * 1000};
    nanosleep(&ts, NULL);
}

/* ---- symmetry tracking ---------------------------------------------------- */

/*
 * Records that s's startup or teardown ran on cpu.  Every state runs
 * alternately up and down; during a walk (not a registration) no later
 * state may be up, which is what "teardown in reverse order" means.
 */
static void track(unsigned cpu, struct stress_state *s, bool up)
{
    struct stress_cpu *c = &W.cpu[cpu];
    bool walk = !atomic_load(&W.registering);
    uint64_t bit = UINT64_C(1) << s->bit;
    int me = atomic_load(&s->hp_state);

    pthread_mutex_lock(&c->lock);
    if (!!(c->up_mask & bit) == up)
        stress_violation("cpu%u: %s %s ran twice in a row", cpu, s->name,
                         up ? "startup" : "teardown");
    for (unsigned b = 0; walk && b < STRESS_NSTATES; b++) {
        struct stress_state *o = W.states[b];
        if (b != s->bit && (c->up_mask >> b & 1) && atomic_load(&o->hp_state) > me)
            stress_violation("cpu%u: %s %s while the later state %s is up", cpu, s->name,
                             up ? "startup" : "teardown", o->name);
    }
    c->up_mask = up ? c->up_mask | bit : c->up_mask & ~bit;
    pthread_mutex_unlock(&c->lock);
}

static uint64_t registered_mask(void)
{
    uint64_t m = 0;
    for (unsigned b = 0; b < STRESS_NSTATES; b++)
        if (atomic_load(&W.states[b]->hp_state) > 0)
            m |= UINT64_C(1) << b;
    return m;
}

static uint64_t cpu_mask(unsigned cpu)
{
    pthread_mutex_lock(&W.cpu[cpu].lock);
    uint64_t m = W.cpu[cpu].up_mask;
    pthread_mutex_unlock(&W.cpu[cpu].lock);
    return m;
}

/* ---- hotplug callbacks --------------------------------------------------------- */

/* A live CPU to take a dying one's timers: random among the online ones. */
int stress_pick_target(unsigned dying)
{
    unsigned n = W.opt.ncpus, start = (unsigned)(stress_rand(&W.rng) % n);
    for (unsigned k = 0; k < n; k++) {
        unsigned c = (start + k) % n;
        if (c != dying && hp_cpu_online(W.hp, c) && tw_cpu_online(W.tw, c))
            return (int)c;
    }
    return -1;
}

static int cb_timers_prepare(unsigned cpu, void *data)
{
    (void)data;
    track(cpu, &ss_timers, true);
    return tw_cpu_prepare(W.tw, cpu);
}

static int cb_timers_dead(unsigned cpu, void *data)
{
    (void)data;
    int to = stress_pick_target(cpu);
    if (to < 0 || tw_cpu_dead(W.tw, cpu, (unsigned)to) < 0)
        stress_violation("cpu%u: timers could not migrate (target %d)", cpu, to);
    track(cpu, &ss_timers, false);
    return 0;
}

/* The safe point: the CPU is not running yet, so its copy of the setting may change. */
static int cb_config_up(unsigned cpu, void *data)
{
    (void)data;
    int v;
    track(cpu, &ss_config, true);
    if (stress_bug_active(BUG_HOTPLUG_CALLBACK)) {
        pthread_mutex_lock(&stress_config_lock);   /* seeded bug: the live value */
        v = (int)W.config_value;
        pthread_mutex_unlock(&stress_config_lock);
    } else {
        v = atomic_load(&W.config_shadow);
    }
    pthread_mutex_lock(&W.cpu[cpu].lock);
    W.cpu[cpu].setting = v;
    pthread_mutex_unlock(&W.cpu[cpu].lock);
    return 0;
}

static int cb_config_down(unsigned cpu, void *data)
{
    (void)data;
    track(cpu, &ss_config, false);
    return 0;
}

static int cb_track_up(unsigned cpu, void *data)
{
    track(cpu, data, true);
    return 0;
}

static int cb_track_down(unsigned cpu, void *data)
{
    track(cpu, data, false);
    return 0;
}

static int cb_online_down(unsigned cpu, void *data)
{
    if (stress_bug_active(BUG_TEARDOWN_WAITS_AP)) {
        pthread_mutex_lock(&stress_mgmt_lock);      /* seeded bug */
        pthread_mutex_unlock(&stress_mgmt_lock);
    }
    track(cpu, data, false);
    return 0;
}

static int cb_dyn(unsigned cpu, void *data, bool up)
{
    pthread_mutex_lock(&stress_dyn_lock);
    dyn_calls++;
    pthread_mutex_unlock(&stress_dyn_lock);
    track(cpu, data, up);
    return 0;
}

static int cb_dyn_up(unsigned cpu, void *data)
{
    return cb_dyn(cpu, data, true);
}

static int cb_dyn_down(unsigned cpu, void *data)
{
    return cb_dyn(cpu, data, false);
}

static int cb_dev(unsigned cpu, struct hp_node *n, bool up)
{
    struct stress_dev *d = container_of(n, struct stress_dev, node);
    uint64_t bit = UINT64_C(1) << cpu;
    pthread_mutex_lock(&d->lock);
    if (!!(d->cpus & bit) == up)
        stress_violation("dev%d: cpu%u %s ran twice", d->id, cpu, up ? "startup" : "teardown");
    d->cpus = up ? d->cpus | bit : d->cpus & ~bit;
    pthread_mutex_unlock(&d->lock);
    return 0;
}

static int cb_dev_up(unsigned cpu, struct hp_node *n)
{
    return cb_dev(cpu, n, true);
}

static int cb_dev_down(unsigned cpu, struct hp_node *n)
{
    return cb_dev(cpu, n, false);
}

/* ---- timers --------------------------------------------------------------- */

static void stress_timer_fn(struct tw_timer *t)
{
    struct stress_timer *st = container_of(t, struct stress_timer, t);
    if (atomic_fetch_sub(&st->outstanding, 1) <= 0)
        stress_violation("timer %td fired without being armed (fired twice?)",
                         st - W.timers);
    pthread_mutex_lock(&W.cpu[st->owner].lock);
    W.cpu[st->owner].own_fired++;
    pthread_mutex_unlock(&W.cpu[st->owner].lock);
}

static void timer_arm(struct stress_timer *st, unsigned cpu, uint64_t *rng)
{
    uint64_t range = UINT64_C(8) << (3 * (stress_rand(rng) % 4));   /* levels 0..3 */
    uint64_t expires = tw_jiffies(W.tw) + 1 + stress_rand(rng) % range;
    atomic_fetch_add(&st->outstanding, 1);           /* before it can fire */
    int ret = tw_mod_timer(W.tw, cpu, &st->t, expires);
    if (ret != 0)                                    /* re-armed (1) or not armed (<0) */
        atomic_fetch_sub(&st->outstanding, 1);
    if (ret < 0)
        stress_violation("cpu%u: arming on an online CPU failed (%d)", cpu, ret);
}

static void timer_cancel(struct stress_timer *st, bool sync)
{
    int was = sync ? tw_del_timer_sync(W.tw, &st->t) : tw_del_timer(W.tw, &st->t);
    if (was)
        atomic_fetch_sub(&st->outstanding, 1);
}

/* ---- cross-CPU kicks (an IPI-like queue per CPU) ---------------------------- */

void stress_kick(unsigned cpu)
{
    pthread_mutex_lock(&W.cpu[cpu].rq_lock);
    W.cpu[cpu].kicks++;
    pthread_mutex_unlock(&W.cpu[cpu].rq_lock);
    atomic_fetch_add(&W.kicks, 1);
}

void stress_drain_kicks(unsigned cpu)
{
    struct stress_cpu *c = &W.cpu[cpu];
    pthread_mutex_lock(&c->rq_lock);
    pthread_mutex_lock(&c->lock);
    c->kicks_handled += c->kicks;
    pthread_mutex_unlock(&c->lock);
    c->kicks = 0;
    pthread_mutex_unlock(&c->rq_lock);
}

/* ---- workers: each acts as its CPU while holding the hotplug read lock ------- */

static void worker_pull(unsigned cpu, uint64_t *rng)
{
    unsigned n = W.opt.ncpus, other = (unsigned)(stress_rand(rng) % n);
    if (other != cpu && hp_cpu_online(W.hp, other) && tw_base_idle(W.tw, other)) {
        if (tw_pull_timers(W.tw, cpu, other) >= 0)
            atomic_fetch_add(&W.pulls, 1);
    }
}

static void worker_step(unsigned cpu, struct stress_cpu *c)
{
    stress_drain_kicks(cpu);
    tw_run_cpu(W.tw, cpu);
    for (int k = 0; k < 4; k++) {
        unsigned i = cpu * STRESS_TIMERS_PER_CPU +
                     (unsigned)(stress_rand(&c->rng) % STRESS_TIMERS_PER_CPU);
        unsigned r = (unsigned)(stress_rand(&c->rng) % 16);
        if (r < 9)
            timer_arm(&W.timers[i], cpu, &c->rng);
        else if (r < 15)
            timer_cancel(&W.timers[i], r >= 13);
        else
            stress_kick((unsigned)(stress_rand(&c->rng) % W.opt.ncpus));
    }
    if (stress_rand(&c->rng) % 64 == 0)
        worker_pull(cpu, &c->rng);
}

static void *worker_main(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    struct stress_cpu *c = &W.cpu[cpu];
    char name[16];
    snprintf(name, sizeof(name), "worker/%u", cpu);
    pthread_setname_np(pthread_self(), name);

    while (!atomic_load(&W.stop)) {
        hp_read_lock(W.hp);
        if (!hp_cpu_online(W.hp, cpu)) {
            hp_read_unlock(W.hp);
            sleep_us(300);
            continue;
        }
        worker_step(cpu, c);
        bool idle = stress_rand(&c->rng) % 16 == 0;
        if (idle)
            tw_idle_enter(W.tw, cpu);     /* busy CPUs run our due timers meanwhile */
        hp_read_unlock(W.hp);
        sleep_us(idle ? 2000 : 100 + (unsigned)(stress_rand(&c->rng) % 200));
        if (idle) {
            hp_read_lock(W.hp);
            if (hp_cpu_online(W.hp, cpu))
                tw_idle_exit(W.tw, cpu);
            hp_read_unlock(W.hp);
        }
    }
    return NULL;
}

static void *clock_main(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "clock");
    while (!atomic_load(&W.stop)) {
        tw_advance(W.tw, 1);
        sleep_us(100);
    }
    return NULL;
}

/* ---- admin: registration at run time ------------------------------------------ */

static void check_dyn_gone(void)
{
    for (unsigned c = 0; c < W.opt.ncpus; c++)
        if (cpu_mask(c) >> ss_dyn.bit & 1)
            stress_violation("cpu%u: %s still up after its removal", c, ss_dyn.name);
}

static void admin_toggle_dyn(void)
{
    atomic_store(&W.registering, true);
    int s = atomic_load(&ss_dyn.hp_state);
    if (s < 0) {
        int range = stress_rand(&W.rng) % 2 ? HP_BP_PREPARE_DYN : HP_AP_ONLINE_DYN;
        s = hp_setup_state(W.hp, range, ss_dyn.name, cb_dyn_up, cb_dyn_down, &ss_dyn, true);
        if (s < 0)
            stress_violation("registering %s failed (%d)", ss_dyn.name, s);
        atomic_store(&ss_dyn.hp_state, s < 0 ? -1 : s);
        atomic_fetch_add(&W.dyn_regs, s >= 0);
    } else {
        if (hp_remove_state(W.hp, s, true) != 0)
            stress_violation("removing %s failed", ss_dyn.name);
        atomic_store(&ss_dyn.hp_state, -1);
        check_dyn_gone();
    }
    atomic_store(&W.registering, false);
}

/* Which CPUs a device instance must have run on: those past the device's state. */
static uint64_t cpus_past(int state)
{
    uint64_t m = 0;
    for (unsigned c = 0; c < W.opt.ncpus; c++)
        if (hp_cpu_state(W.hp, c) >= state)
            m |= UINT64_C(1) << c;
    return m;
}

static void dev_check(struct stress_dev *d, uint64_t want, const char *when)
{
    pthread_mutex_lock(&d->lock);
    if (d->cpus != want)
        stress_violation("dev%d %s: ran on cpus %#llx, expected %#llx", d->id, when,
                         (unsigned long long)d->cpus, (unsigned long long)want);
    pthread_mutex_unlock(&d->lock);
}

static void admin_toggle_dev(struct stress_dev *d)
{
    char name[32];
    atomic_store(&W.registering, true);
    if (!d->live) {
        pthread_mutex_init(&d->lock, NULL);
        uld_lock_set_class(&d->lock, &stress_dev_class, "stress_dev.lock");
        snprintf(name, sizeof(name), "stress_dev[%d].lock", d->id);
        uld_lock_set_name(&d->lock, name);
        d->cpus = 0;
        if (hp_state_add_instance(W.hp, W.dev_state, &d->node, true) == 0) {
            d->live = true;
            atomic_fetch_add(&W.dev_adds, 1);
            dev_check(d, cpus_past(W.dev_state), "added");
        } else {
            stress_violation("dev%d: adding the instance failed", d->id);
            pthread_mutex_destroy(&d->lock);
        }
    } else {
        if (hp_state_remove_instance(W.hp, W.dev_state, &d->node, true) != 0)
            stress_violation("dev%d: removing the instance failed", d->id);
        dev_check(d, 0, "removed");
        pthread_mutex_destroy(&d->lock);
        d->live = false;
    }
    atomic_store(&W.registering, false);
}

static void admin_write_config(void)
{
    pthread_mutex_lock(&stress_config_lock);
    W.config_value++;
    atomic_store(&W.config_shadow, (int)W.config_value);  /* applied at the next bring-up */
    pthread_mutex_unlock(&stress_config_lock);
    atomic_fetch_add(&W.config_writes, 1);
}

static void *admin_main(void *arg)
{
    (void)arg;
    pthread_setname_np(pthread_self(), "admin");
    while (!atomic_load(&W.stop)) {
        pthread_mutex_lock(&stress_mgmt_lock);
        uint64_t r = stress_rand(&W.rng) % 3;
        if (r == 0)
            admin_toggle_dyn();
        else if (r == 1)
            admin_toggle_dev(&W.devs[stress_rand(&W.rng) % STRESS_MAX_DEVS]);
        pthread_mutex_unlock(&stress_mgmt_lock);
        if (r == 2)
            admin_write_config();
        sleep_us(800);
    }
    return NULL;
}

/* ---- controller: hotplug operations and their checks ------------------------- */

static void check_devs(unsigned cpu)
{
    for (int k = 0; k < STRESS_MAX_DEVS; k++) {
        struct stress_dev *d = &W.devs[k];
        if (!d->live)
            continue;
        pthread_mutex_lock(&d->lock);
        bool ran = d->cpus >> cpu & 1, want = hp_cpu_state(W.hp, cpu) >= W.dev_state;
        pthread_mutex_unlock(&d->lock);
        if (ran != want)
            stress_violation("dev%d: cpu%u instance %s but the CPU is %s", k, cpu,
                             ran ? "up" : "down", want ? "past it" : "before it");
    }
}

/* After an operation on cpu: where it ended and which callbacks are in effect. */
static void check_after_op(unsigned cpu, int target, int ret, bool injected, int prev,
                           uint64_t prev_mask)
{
    int state = hp_cpu_state(W.hp, cpu);
    uint64_t mask = cpu_mask(cpu);

    if (injected && ret != -EAGAIN)
        stress_violation("cpu%u: an injected failure did not fail the operation (%d)", cpu, ret);
    if (ret == 0) {
        uint64_t want = target == HP_ONLINE ? registered_mask() : 0;
        if (state != target || mask != want)
            stress_violation("cpu%u: after the operation state %d mask %#llx, expected %d %#llx",
                             cpu, state, (unsigned long long)mask, target,
                             (unsigned long long)want);
        atomic_fetch_add(&W.cycles, 1);
    } else if (ret == -EAGAIN) {
        if (state != prev || mask != prev_mask)
            stress_violation("cpu%u: rollback left state %d mask %#llx, was %d %#llx", cpu,
                             state, (unsigned long long)mask, prev,
                             (unsigned long long)prev_mask);
        atomic_fetch_add(&W.failed_ops, 1);
    } else {
        stress_violation("cpu%u: operation failed with %d", cpu, ret);
    }
    if (hp_cpu_online(W.hp, cpu) != tw_cpu_online(W.tw, cpu))
        stress_violation("cpu%u: hotplug and timer base disagree about being online", cpu);
    check_devs(cpu);
}

/* One hotplug operation on cpu, maybe with an injected failure; stress_mgmt_lock held. */
static int controller_op(unsigned cpu, int target, bool inject)
{
    int prev = hp_cpu_state(W.hp, cpu), fail = -1;
    uint64_t prev_mask = cpu_mask(cpu);

    if (inject) {
        fail = atomic_load(&W.states[stress_rand(&W.rng) % STRESS_NSTATES]->hp_state);
        if (fail > 0 && hp_inject_fail(W.hp, cpu, fail) == 0)
            atomic_fetch_add(&W.injected, 1);
        else
            fail = -1;
    }
    int ret = hp_cpu_set_target(W.hp, cpu, target);
    check_after_op(cpu, target, ret, fail > 0, prev, prev_mask);
    return ret;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void stress_world_run(void)
{
    double deadline = W.opt.seconds > 0 ? now_s() + W.opt.seconds : 0;

    atomic_store(&W.stop, false);
    pthread_create(&clock_thread, NULL, clock_main, NULL);
    pthread_create(&admin_thread, NULL, admin_main, NULL);
    for (unsigned c = 0; c < W.opt.ncpus; c++)
        pthread_create(&W.cpu[c].worker, NULL, worker_main, (void *)(uintptr_t)c);

    for (unsigned long it = 0; !W.opt.iterations_given || it < W.opt.iterations; it++) {
        if (deadline && now_s() >= deadline)
            break;
        pthread_mutex_lock(&stress_mgmt_lock);
        unsigned cpu = 1 + (unsigned)(stress_rand(&W.rng) % (W.opt.ncpus - 1));
        bool inject = stress_rand(&W.rng) % 4 == 0;
        controller_op(cpu, hp_cpu_online(W.hp, cpu) ? HP_OFFLINE : HP_ONLINE, inject);
        pthread_mutex_unlock(&stress_mgmt_lock);
        if (it % 64 == 63) {
            raise(SIGUSR1);          /* "dump statistics", as an operator would */
            atomic_fetch_add(&W.signals, 1);
        }
        sleep_us(200 + (unsigned)(it % 7) * 100);
    }
    atomic_store(&W.stop, true);
    for (unsigned c = 0; c < W.opt.ncpus; c++)
        pthread_join(W.cpu[c].worker, NULL);
    pthread_join(admin_thread, NULL);
    pthread_join(clock_thread, NULL);
}

/* ---- set-up, final checks, tear-down -------------------------------------------- */

static int register_state(struct stress_state *s, int where, hp_single_fn up, hp_single_fn down)
{
    int st = hp_setup_state(W.hp, where, s->name, up, down, s, true);
    atomic_store(&s->hp_state, st);
    return st;
}

static void cpu_init(unsigned i)
{
    struct stress_cpu *c = &W.cpu[i];
    char name[32];
    pthread_mutex_init(&c->lock, NULL);
    uld_lock_set_class(&c->lock, &stress_cpu_class, "stress_cpu.lock");
    snprintf(name, sizeof(name), "stress_cpu[%u].lock", i);
    uld_lock_set_name(&c->lock, name);
    pthread_mutex_init(&c->rq_lock, NULL);
    uld_lock_set_class(&c->rq_lock, &stress_rq_class, "stress_rq.lock");
    snprintf(name, sizeof(name), "stress_rq[%u].lock", i);
    uld_lock_set_name(&c->rq_lock, name);
    c->rng = W.opt.seed * 0x9e3779b97f4a7c15ull + i + 1;
}

static void name_static_locks(void)
{
    uld_lock_set_name(&stress_mgmt_lock, "stress_mgmt_lock");
    uld_lock_set_name(&stress_config_lock, "stress_config_lock");
    uld_lock_set_name(&stress_stats_lock, "stress_stats_lock");
    uld_lock_set_name(&stress_dyn_lock, "stress_dyn_lock");
    uld_lock_set_name(&stress_sync_lock, "stress_sync_lock");
}

int stress_world_init(void)
{
    unsigned n = W.opt.ncpus;
    W.rng = W.opt.seed * 0x2545f4914f6cdd1dull + 7;
    W.states[0] = &ss_timers;
    W.states[1] = &ss_config;
    W.states[2] = &ss_starting;
    W.states[3] = &ss_online;
    W.states[4] = &ss_dyn;
    name_static_locks();
    W.hp = hp_create(n);
    W.tw = tw_create(n);
    W.timers = calloc((size_t)n * STRESS_TIMERS_PER_CPU, sizeof(*W.timers));
    if (!W.hp || !W.tw || !W.timers)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        cpu_init(i);
        if (i > 0)
            tw_cpu_dead(W.tw, i, 0);     /* only the boot CPU's base is up */
    }
    for (unsigned i = 0; i < n * STRESS_TIMERS_PER_CPU; i++) {
        tw_timer_init(&W.timers[i].t, stress_timer_fn, "stress_timer");
        W.timers[i].owner = i / STRESS_TIMERS_PER_CPU;
    }
    for (int k = 0; k < STRESS_MAX_DEVS; k++)
        W.devs[k].id = k;

    pthread_mutex_lock(&stress_mgmt_lock);
    atomic_store(&W.registering, true);
    int ok = register_state(&ss_timers, HP_TIMERS_PREPARE, cb_timers_prepare, cb_timers_dead) > 0 &&
             register_state(&ss_config, HP_BP_PREPARE_DYN, cb_config_up, cb_config_down) > 0 &&
             register_state(&ss_starting, HP_AP_STARTING, cb_track_up, cb_track_down) > 0;
    W.dev_state = hp_setup_multi_state(W.hp, HP_AP_ONLINE_DYN, "stress:dev", cb_dev_up, cb_dev_down);
    ok = ok && W.dev_state > 0 &&
         register_state(&ss_online, HP_AP_ONLINE_DYN, cb_track_up, cb_online_down) > 0;
    atomic_store(&W.registering, false);
    pthread_mutex_unlock(&stress_mgmt_lock);
    return ok ? 0 : -1;
}

/* Every pending timer fires exactly once on the boot CPU after the others go down. */
static void drain_timers(void)
{
    unsigned n = W.opt.ncpus * STRESS_TIMERS_PER_CPU;
    tw_advance(W.tw, UINT64_C(1) << 24);
    for (int round = 0; round < 8 && tw_pending_count(W.tw, 0); round++)
        tw_run_cpu(W.tw, 0);
    for (unsigned i = 0; i < n; i++) {
        struct stress_timer *st = &W.timers[i];
        if (atomic_load(&st->outstanding) != 0 || tw_timer_pending(W.tw, &st->t))
            stress_violation("timer %u lost: armed %lld more times than it fired or was "
                             "cancelled", i, (long long)atomic_load(&st->outstanding));
    }
}

int stress_world_finish(void)
{
    pthread_mutex_lock(&stress_mgmt_lock);
    stress_set_active_bugs(0);
    for (unsigned c = 1; c < W.opt.ncpus; c++)
        if (hp_cpu_state(W.hp, c) != HP_OFFLINE)
            controller_op(c, HP_OFFLINE, false);
    drain_timers();
    for (int k = 0; k < STRESS_MAX_DEVS; k++)
        if (W.devs[k].live)
            admin_toggle_dev(&W.devs[k]);
    if (atomic_load(&ss_dyn.hp_state) > 0)
        admin_toggle_dyn();
    pthread_mutex_unlock(&stress_mgmt_lock);

    struct tw_stats ts;
    struct hp_stats hs;
    tw_get_stats(W.tw, &ts);
    hp_get_stats(W.hp, &hs);
    if (ts.early || ts.coarse)
        stress_violation("timers fired early (%llu) or later than their level allows (%llu)",
                         (unsigned long long)ts.early, (unsigned long long)ts.coarse);
    if (hs.rollback_errors)
        stress_violation("%llu callbacks failed during rollback",
                         (unsigned long long)hs.rollback_errors);
    if (hs.injected != atomic_load(&W.injected))
        stress_violation("injected %llu failures, the machine saw %llu",
                         (unsigned long long)atomic_load(&W.injected),
                         (unsigned long long)hs.injected);
    return (int)atomic_load(&W.violations);
}

void stress_print_summary(FILE *out)
{
    struct tw_stats ts;
    struct hp_stats hs;
    tw_get_stats(W.tw, &ts);
    hp_get_stats(W.hp, &hs);
    pthread_mutex_lock(&stress_stats_lock);
    fprintf(out, "hotplug: %llu cycles (%llu up, %llu down), %llu failed and rolled back "
                 "(%llu injected), %llu AP hand-offs\n",
            (unsigned long long)atomic_load(&W.cycles), (unsigned long long)hs.ups,
            (unsigned long long)hs.downs, (unsigned long long)hs.failed,
            (unsigned long long)hs.injected, (unsigned long long)hs.ap_requests);
    fprintf(out, "timers: %llu armed, %llu fired (%llu by a busy CPU for an idle one), "
                 "%llu cancelled, %llu migrated, %llu pulled\n",
            (unsigned long long)ts.armed, (unsigned long long)ts.fired,
            (unsigned long long)ts.remote_fired, (unsigned long long)ts.cancelled,
            (unsigned long long)ts.migrated, (unsigned long long)ts.pulled);
    fprintf(out, "registry: %llu dynamic states, %llu device instances, %llu config writes, "
                 "%llu kicks, %llu signals\n",
            (unsigned long long)atomic_load(&W.dyn_regs),
            (unsigned long long)atomic_load(&W.dev_adds),
            (unsigned long long)atomic_load(&W.config_writes),
            (unsigned long long)atomic_load(&W.kicks), (unsigned long long)atomic_load(&W.signals));
    pthread_mutex_unlock(&stress_stats_lock);
}

void stress_world_destroy(void)
{
    unsigned n = W.opt.ncpus;
    if (W.timers) {
        for (unsigned i = 0; i < n * STRESS_TIMERS_PER_CPU; i++)
            tw_timer_destroy(&W.timers[i].t);
        free(W.timers);
    }
    hp_destroy(W.hp);
    tw_destroy(W.tw);
    for (unsigned i = 0; i < n; i++) {
        pthread_mutex_destroy(&W.cpu[i].lock);
        pthread_mutex_destroy(&W.cpu[i].rq_lock);
    }
}
