/*
 * hotplug.c - CPU hotplug operations: walking a CPU through the state
 * table, the BP/AP split, rollback on failure, the per-CPU AP threads and
 * the hotplug lock (kernel/cpu.c: _cpu_up/_cpu_down, cpuhp_thread_fun,
 * cpuhp_invoke_callback, cpus_read_lock).
 *
 * Locks: cpu_hotplug_lock (hp->lock) is held for writing by every operation
 * and orders everything below it; cpuhp[N].lock only guards the hand-off to
 * CPU N's AP thread and is never held while a callback runs.  AP callbacks
 * run inside the pseudo-locks cpuhp_state-up / cpuhp_state-down, which the
 * controlling side acquires and releases before it waits for the AP, so the
 * validator sees "BP holds L, waits for AP; AP callback takes L" as the
 * cycle L -> cpuhp_state-up -> L (kernel: cpuhp_lock_acquire()).
 */
#define _GNU_SOURCE
#include "hotplug_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "ulockdep.h"

/* The validator's view of "an AP callback is running" (kernel: cpuhp_state_up_map). */
static char cpuhp_state_up_map, cpuhp_state_down_map;
static pthread_once_t hp_maps_once = PTHREAD_ONCE_INIT;
static char hp_cpu_lock_class;
static char hp_lock_class, hp_state_mutex_class;
static _Thread_local int hp_tls_cpu = -1;

static void hp_maps_init(void)
{
    uld_lock_init(&cpuhp_state_up_map, "cpuhp_state-up", 0);
    uld_lock_set_class(&cpuhp_state_up_map, &cpuhp_state_up_map, "cpuhp_state-up");
    uld_lock_init(&cpuhp_state_down_map, "cpuhp_state-down", 0);
    uld_lock_set_class(&cpuhp_state_down_map, &cpuhp_state_down_map, "cpuhp_state-down");
}

static void hp_map_acquire(bool up)
{
    uld_acquire(up ? &cpuhp_state_up_map : &cpuhp_state_down_map, 0);
}

static void hp_map_release(bool up)
{
    uld_release(up ? &cpuhp_state_up_map : &cpuhp_state_down_map);
}

int hp_this_cpu(void)
{
    return hp_tls_cpu;
}

/* ---- callback invocation ------------------------------------------------ */

/* Undo the instances before `stop` after `stop` failed (kernel: cpuhp_invoke_callback). */
static void hp_multi_undo(struct hp_step *s, unsigned cpu, bool up, struct hp_node *stop)
{
    hp_multi_fn undo = up ? s->teardown_multi : s->startup_multi;
    for (struct hp_node *n = s->instances; n && n != stop; n = n->next)
        if (undo)
            undo(cpu, n);
}

/* Runs one state's callback for one CPU on the calling thread. */
static int hp_invoke(struct hp_machine *hp, struct hp_cpu *c, int state, bool up,
                     struct hp_node *node)
{
    struct hp_step *s = &hp->steps[state];
    bool ap = hp_state_on_ap(state);
    int ret = 0;

    if (ap)
        hp_map_acquire(up);
    if (!s->multi) {
        hp_single_fn fn = up ? s->startup : s->teardown;
        ret = fn ? fn(c->id, s->data) : 0;
    } else {
        hp_multi_fn fn = up ? s->startup_multi : s->teardown_multi;
        if (fn && node) {
            ret = fn(c->id, node);
        } else if (fn) {
            for (struct hp_node *n = s->instances; n; n = n->next) {
                ret = fn(c->id, n);
                if (ret) {
                    hp_multi_undo(s, c->id, up, n);
                    break;
                }
            }
        }
    }
    if (ap)
        hp_map_release(up);
    return ret;
}

/* Moves c->state one step toward target; *st is the state to run (kernel: cpuhp_next_state). */
static bool hp_next_state(struct hp_cpu *c, bool up, int target, int *st)
{
    int cur = atomic_load(&c->state);
    if (up ? cur >= target : cur <= target)
        return false;
    *st = up ? cur + 1 : cur;
    atomic_store(&c->state, up ? cur + 1 : cur - 1);
    return true;
}

static int hp_call_step(struct hp_machine *hp, struct hp_cpu *c, int st, bool up,
                        bool rollback)
{
    if (!rollback && c->fail == st) {
        c->fail = HP_FAIL_NONE;
        atomic_fetch_add(&hp->stats.injected, 1);
        return -EAGAIN;
    }
    int ret = hp_invoke(hp, c, st, up, NULL);
    if (ret && rollback) {
        atomic_fetch_add(&hp->stats.rollback_errors, 1);
        fprintf(stderr, "hotplug: cpu%u: state %s failed during rollback (%d)\n", c->id,
                hp->steps[st].name, ret);
        return 0;
    }
    return ret;
}

/*
 * Walks c from its state to target on the calling thread.  On failure the
 * CPU goes back to where it started through the regular callbacks of the
 * opposite direction (kernel: cpuhp_invoke_callback_range + cpuhp_reset_state).
 */
static int hp_run_range(struct hp_machine *hp, struct hp_cpu *c, int target, bool rollback)
{
    int prev = atomic_load(&c->state), st = prev, ret = 0;
    bool up = target > prev;

    while (hp_next_state(c, up, target, &st)) {
        ret = hp_call_step(hp, c, st, up, rollback);
        if (ret)
            break;
    }
    if (!ret)
        return 0;
    /* The failed state did not change: up, it is not up; down, it still is. */
    atomic_store(&c->state, up ? st - 1 : st);
    hp_run_range(hp, c, prev, true);
    return ret;
}

/* ---- the AP side ------------------------------------------------------- */

static int hp_ap_execute(struct hp_machine *hp, struct hp_cpu *c, const struct hp_request *r)
{
    if (r->kind == HP_REQ_WALK)
        return hp_run_range(hp, c, r->target, r->rollback);
    return hp_invoke(hp, c, r->state, r->up, r->node);
}

/* The per-CPU "cpuhp/N" thread: runs the AP states of its CPU on request. */
static void *hp_ap_thread(void *arg)
{
    struct hp_cpu *c = arg;
    char name[16];

    snprintf(name, sizeof(name), "cpuhp/%u", c->id);
    pthread_setname_np(pthread_self(), name);
    hp_tls_cpu = (int)c->id;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (!c->pending)
            pthread_cond_wait(&c->kick, &c->lock);
        struct hp_request req = c->req;
        if (req.kind == HP_REQ_STOP)
            break;
        pthread_mutex_unlock(&c->lock);
        int ret = hp_ap_execute(c->hp, c, &req);
        pthread_mutex_lock(&c->lock);
        c->result = ret;
        c->pending = false;
        pthread_cond_broadcast(&c->done);
    }
    c->pending = false;
    pthread_cond_broadcast(&c->done);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/*
 * Hands r to c's AP thread and waits for its result.  Before waiting, tell
 * the validator that we depend on every lock an AP callback may take
 * (kernel: cpuhp_kick_ap_work acquiring and releasing both maps).
 */
static int hp_ap_request(struct hp_machine *hp, struct hp_cpu *c, const struct hp_request *r)
{
    int ret;

    hp_map_acquire(false);
    hp_map_release(false);
    hp_map_acquire(true);
    hp_map_release(true);
    atomic_fetch_add(&hp->stats.ap_requests, 1);
    pthread_mutex_lock(&c->lock);
    c->req = *r;
    c->pending = true;
    pthread_cond_signal(&c->kick);
    while (c->pending)
        pthread_cond_wait(&c->done, &c->lock);
    ret = c->result;
    pthread_mutex_unlock(&c->lock);
    return ret;
}

static int hp_ap_walk(struct hp_machine *hp, struct hp_cpu *c, int target, bool rollback)
{
    struct hp_request r = {.kind = HP_REQ_WALK, .target = target, .rollback = rollback};
    return hp_ap_request(hp, c, &r);
}

int hp_issue_call(struct hp_machine *hp, struct hp_cpu *c, int state, bool up,
                  struct hp_node *node)
{
    if (!hp_state_on_ap(state))
        return hp_invoke(hp, c, state, up, node);
    struct hp_request r = {.kind = HP_REQ_CALL, .state = state, .up = up, .node = node};
    return hp_ap_request(hp, c, &r);
}

/* ---- operations ---------------------------------------------------------- */

/* The BP runs states up to HP_BP_LAST itself and hands the rest to the AP. */
static int hp_walk_up(struct hp_machine *hp, struct hp_cpu *c, int prev, int target)
{
    int ret = 0;
    if (prev < HP_BP_LAST)
        ret = hp_run_range(hp, c, target < HP_BP_LAST ? target : HP_BP_LAST, false);
    if (ret || target <= HP_BP_LAST)
        return ret;
    ret = hp_ap_walk(hp, c, target, false);      /* AP rolls its own states back */
    if (ret && prev < HP_BP_LAST)
        hp_run_range(hp, c, prev, true);
    return ret;
}

static int hp_walk_down(struct hp_machine *hp, struct hp_cpu *c, int prev, int target)
{
    int ret = 0;
    if (prev > HP_BP_LAST)
        ret = hp_ap_walk(hp, c, target > HP_BP_LAST ? target : HP_BP_LAST, false);
    if (ret || target >= HP_BP_LAST)
        return ret;
    ret = hp_run_range(hp, c, target, false);    /* BP rolls its own states back */
    if (ret && prev > HP_BP_LAST)
        hp_ap_walk(hp, c, prev, true);
    return ret;
}

static void hp_write_lock(struct hp_machine *hp)
{
    atomic_fetch_add(&hp->writers_waiting, 1);
    pthread_rwlock_wrlock(&hp->lock);
    atomic_fetch_sub(&hp->writers_waiting, 1);
}

int hp_cpu_set_target(struct hp_machine *hp, unsigned cpu, int target)
{
    if (cpu >= hp->ncpus || target < HP_OFFLINE || target > HP_ONLINE)
        return -EINVAL;
    struct hp_cpu *c = &hp->cpus[cpu];
    int ret = 0;

    hp_write_lock(hp);
    int prev = atomic_load(&c->state);
    if (target < HP_ONLINE && prev == HP_ONLINE && hp_num_online(hp) == 1) {
        ret = -EBUSY;
        goto out;
    }
    /* The safe point for the outside world's setting: no walk in progress. */
    int fail = atomic_exchange(&c->fail_shadow, HP_FAIL_UNSET);
    if (fail != HP_FAIL_UNSET)
        c->fail = fail;
    if (target > prev)
        ret = hp_walk_up(hp, c, prev, target);
    else if (target < prev)
        ret = hp_walk_down(hp, c, prev, target);
    if (ret)
        atomic_fetch_add(&hp->stats.failed, 1);
    else if (target != prev)
        atomic_fetch_add(target > prev ? &hp->stats.ups : &hp->stats.downs, 1);
out:
    pthread_rwlock_unlock(&hp->lock);
    return ret;
}

int hp_cpu_up(struct hp_machine *hp, unsigned cpu)
{
    return hp_cpu_set_target(hp, cpu, HP_ONLINE);
}

int hp_cpu_down(struct hp_machine *hp, unsigned cpu)
{
    return hp_cpu_set_target(hp, cpu, HP_OFFLINE);
}

int hp_inject_fail(struct hp_machine *hp, unsigned cpu, int state)
{
    if (cpu >= hp->ncpus || state < HP_FAIL_NONE || state > HP_ONLINE || state == HP_OFFLINE)
        return -EINVAL;
    atomic_store(&hp->cpus[cpu].fail_shadow, state);
    return 0;
}

/* Readers back off while a writer waits: glibc's default rwlock would starve it. */
void hp_read_lock(struct hp_machine *hp)
{
    while (atomic_load(&hp->writers_waiting))
        sched_yield();
    pthread_rwlock_rdlock(&hp->lock);
}

void hp_read_unlock(struct hp_machine *hp)
{
    pthread_rwlock_unlock(&hp->lock);
}

int hp_cpu_state(const struct hp_machine *hp, unsigned cpu)
{
    return cpu < hp->ncpus ? atomic_load(&hp->cpus[cpu].state) : -EINVAL;
}

bool hp_cpu_online(const struct hp_machine *hp, unsigned cpu)
{
    return cpu < hp->ncpus && (atomic_load(&hp->online_mask) >> cpu & 1);
}

unsigned hp_num_online(const struct hp_machine *hp)
{
    return (unsigned)__builtin_popcountll(atomic_load(&hp->online_mask));
}

unsigned hp_num_cpus(const struct hp_machine *hp)
{
    return hp->ncpus;
}

void hp_get_stats(const struct hp_machine *hp, struct hp_stats *out)
{
    out->ups = atomic_load(&hp->stats.ups);
    out->downs = atomic_load(&hp->stats.downs);
    out->failed = atomic_load(&hp->stats.failed);
    out->injected = atomic_load(&hp->stats.injected);
    out->rollback_errors = atomic_load(&hp->stats.rollback_errors);
    out->ap_requests = atomic_load(&hp->stats.ap_requests);
}

/* ---- life cycle ------------------------------------------------------------ */

static int hp_cpu_init(struct hp_machine *hp, unsigned id)
{
    struct hp_cpu *c = &hp->cpus[id];
    char name[32];

    c->hp = hp;
    c->id = id;
    atomic_init(&c->state, HP_OFFLINE);
    atomic_init(&c->fail_shadow, HP_FAIL_UNSET);
    c->fail = HP_FAIL_NONE;
    pthread_mutex_init(&c->lock, NULL);
    uld_lock_set_class(&c->lock, &hp_cpu_lock_class, "cpuhp_cpu.lock");
    snprintf(name, sizeof(name), "cpuhp[%u].lock", id);
    uld_lock_set_name(&c->lock, name);
    pthread_cond_init(&c->kick, NULL);
    pthread_cond_init(&c->done, NULL);
    return pthread_create(&c->thread, NULL, hp_ap_thread, c);
}

static void hp_cpu_stop(struct hp_cpu *c)
{
    pthread_mutex_lock(&c->lock);
    c->req.kind = HP_REQ_STOP;
    c->pending = true;
    pthread_cond_signal(&c->kick);
    pthread_mutex_unlock(&c->lock);
    pthread_join(c->thread, NULL);
    pthread_cond_destroy(&c->kick);
    pthread_cond_destroy(&c->done);
    pthread_mutex_destroy(&c->lock);
}

struct hp_machine *hp_create(unsigned ncpus)
{
    if (ncpus == 0 || ncpus > HP_MAX_CPUS)
        return NULL;
    struct hp_machine *hp = calloc(1, sizeof(*hp));
    if (!hp)
        return NULL;
    pthread_once(&hp_maps_once, hp_maps_init);
    pthread_rwlock_init(&hp->lock, NULL);
    uld_lock_set_class(&hp->lock, &hp_lock_class, "cpu_hotplug_lock");
    uld_lock_set_name(&hp->lock, "cpu_hotplug_lock");
    pthread_mutex_init(&hp->state_mutex, NULL);
    uld_lock_set_class(&hp->state_mutex, &hp_state_mutex_class, "cpuhp_state_mutex");
    uld_lock_set_name(&hp->state_mutex, "cpuhp_state_mutex");
    hp_steps_init(hp);
    for (unsigned i = 0; i < ncpus; i++) {
        if (hp_cpu_init(hp, i) != 0) {
            hp->ncpus = i;
            hp_destroy(hp);
            return NULL;
        }
        hp->ncpus = i + 1;
    }
    if (hp_cpu_up(hp, 0) != 0) {
        hp_destroy(hp);
        return NULL;
    }
    return hp;
}

void hp_destroy(struct hp_machine *hp)
{
    if (!hp)
        return;
    for (unsigned i = 0; i < hp->ncpus; i++)
        hp_cpu_stop(&hp->cpus[i]);
    pthread_mutex_destroy(&hp->state_mutex);
    pthread_rwlock_destroy(&hp->lock);
    free(hp);
}
