/*
 * hotplug_state.c - the state table: built-in states, registration of
 * named and dynamic states, multi-instance states and their instances
 * (kernel/cpu.c: cpuhp_hp_states, __cpuhp_setup_state_cpuslocked,
 * __cpuhp_state_add_instance, cpuhp_issue_call, cpuhp_rollback_install).
 *
 * Locks: every function here takes cpu_hotplug_lock for reading (CPUs hold
 * still) and then cpuhp_state_mutex (one registration at a time); both are
 * held while callbacks run on the CPUs already past the state, which for AP
 * states means waiting for the CPU's AP thread.
 */
#include "hotplug_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void hp_step_set(struct hp_step *s, const char *name)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", name ? name : "?");
    s->in_use = true;
}

static int hp_bringup_cpu(unsigned cpu, void *data)
{
    struct hp_machine *hp = data;
    atomic_store(&hp->cpus[cpu].alive, true);
    return 0;
}

static int hp_takedown_cpu(unsigned cpu, void *data)
{
    struct hp_machine *hp = data;
    atomic_store(&hp->cpus[cpu].alive, false);
    return 0;
}

static int hp_set_online(unsigned cpu, void *data)
{
    struct hp_machine *hp = data;
    atomic_fetch_or(&hp->online_mask, UINT64_C(1) << cpu);
    return 0;
}

static int hp_clear_online(unsigned cpu, void *data)
{
    struct hp_machine *hp = data;
    atomic_fetch_and(&hp->online_mask, ~(UINT64_C(1) << cpu));
    return 0;
}

static void hp_builtin(struct hp_machine *hp, int state, const char *name, hp_single_fn up,
                       hp_single_fn down)
{
    struct hp_step *s = &hp->steps[state];
    hp_step_set(s, name);
    s->builtin = true;
    s->startup = up;
    s->teardown = down;
    s->data = hp;
}

void hp_steps_init(struct hp_machine *hp)
{
    hp_builtin(hp, HP_OFFLINE, "offline", NULL, NULL);
    hp_builtin(hp, HP_CREATE_THREADS, "threads:prepare", NULL, NULL);
    hp_builtin(hp, HP_BRINGUP_CPU, "cpu:bringup", hp_bringup_cpu, hp_takedown_cpu);
    hp_builtin(hp, HP_ONLINE, "online", hp_set_online, hp_clear_online);
}

/* A free slot for `state` (a named slot or a dynamic range start); state_mutex held. */
static int hp_slot_find(struct hp_machine *hp, int state)
{
    int end;
    if (state == HP_BP_PREPARE_DYN)
        end = HP_BP_PREPARE_DYN_END;
    else if (state == HP_AP_ONLINE_DYN)
        end = HP_AP_ONLINE_DYN_END;
    else if (state == HP_TIMERS_PREPARE || state == HP_AP_STARTING)
        return hp->steps[state].in_use ? -EBUSY : state;
    else
        return -EINVAL;
    for (int s = state; s < end; s++)
        if (!hp->steps[s].in_use)
            return s;
    return -ENOSPC;
}

/* A registered, removable state; state_mutex held. */
static struct hp_step *hp_user_step(struct hp_machine *hp, int state)
{
    if (state <= HP_OFFLINE || state >= HP_NR_STATES)
        return NULL;
    struct hp_step *s = &hp->steps[state];
    return s->in_use && !s->builtin ? s : NULL;
}

/*
 * Runs state's startup or teardown for node (NULL: the state itself) on
 * every CPU already past it.  A failed startup tears the CPUs already done
 * back down; a failed teardown is counted and the others still run.
 */
static int hp_call_all(struct hp_machine *hp, int state, bool up, struct hp_node *node)
{
    for (unsigned cpu = 0; cpu < hp->ncpus; cpu++) {
        struct hp_cpu *c = &hp->cpus[cpu];
        if (atomic_load(&c->state) < state)
            continue;
        int ret = hp_issue_call(hp, c, state, up, node);
        if (!ret)
            continue;
        if (!up) {
            atomic_fetch_add(&hp->stats.rollback_errors, 1);
            continue;
        }
        for (unsigned done = 0; done < cpu; done++)
            if (atomic_load(&hp->cpus[done].state) >= state)
                hp_issue_call(hp, &hp->cpus[done], state, false, node);
        return ret;
    }
    return 0;
}

static void hp_register_lock(struct hp_machine *hp)
{
    hp_read_lock(hp);
    pthread_mutex_lock(&hp->state_mutex);
}

static void hp_register_unlock(struct hp_machine *hp)
{
    pthread_mutex_unlock(&hp->state_mutex);
    hp_read_unlock(hp);
}

int hp_setup_state(struct hp_machine *hp, int state, const char *name, hp_single_fn startup,
                   hp_single_fn teardown, void *data, bool invoke)
{
    hp_register_lock(hp);
    int slot = hp_slot_find(hp, state);
    if (slot >= 0) {
        struct hp_step *s = &hp->steps[slot];
        hp_step_set(s, name);
        s->startup = startup;
        s->teardown = teardown;
        s->data = data;
        if (invoke && startup) {
            int ret = hp_call_all(hp, slot, true, NULL);
            if (ret) {
                memset(s, 0, sizeof(*s));
                slot = ret;
            }
        }
    }
    hp_register_unlock(hp);
    return slot;
}

int hp_setup_multi_state(struct hp_machine *hp, int state, const char *name,
                         hp_multi_fn startup, hp_multi_fn teardown)
{
    hp_register_lock(hp);
    int slot = hp_slot_find(hp, state);
    if (slot >= 0) {
        struct hp_step *s = &hp->steps[slot];
        hp_step_set(s, name);
        s->multi = true;
        s->startup_multi = startup;
        s->teardown_multi = teardown;
    }
    hp_register_unlock(hp);
    return slot;
}

int hp_remove_state(struct hp_machine *hp, int state, bool invoke)
{
    int ret = 0;
    hp_register_lock(hp);
    struct hp_step *s = hp_user_step(hp, state);
    if (!s)
        ret = -EINVAL;
    else if (s->multi && s->instances)
        ret = -EBUSY;
    else if (invoke && !s->multi && s->teardown)
        hp_call_all(hp, state, false, NULL);
    if (!ret)
        memset(s, 0, sizeof(*s));
    hp_register_unlock(hp);
    return ret;
}

int hp_state_add_instance(struct hp_machine *hp, int state, struct hp_node *node, bool invoke)
{
    int ret = 0;
    hp_register_lock(hp);
    struct hp_step *s = hp_user_step(hp, state);
    if (!s || !s->multi)
        ret = -EINVAL;
    else if (invoke && s->startup_multi)
        ret = hp_call_all(hp, state, true, node);
    if (!ret) {
        node->next = s->instances;
        s->instances = node;
    }
    hp_register_unlock(hp);
    return ret;
}

int hp_state_remove_instance(struct hp_machine *hp, int state, struct hp_node *node,
                             bool invoke)
{
    int ret = -ENOENT;
    hp_register_lock(hp);
    struct hp_step *s = hp_user_step(hp, state);
    if (!s || !s->multi) {
        ret = -EINVAL;
        goto out;
    }
    for (struct hp_node **pp = &s->instances; *pp; pp = &(*pp)->next) {
        if (*pp != node)
            continue;
        if (invoke && s->teardown_multi)
            hp_call_all(hp, state, false, node);
        *pp = node->next;
        node->next = NULL;
        ret = 0;
        break;
    }
out:
    hp_register_unlock(hp);
    return ret;
}

/* Read under the hotplug lock, or when nobody registers concurrently. */
const char *hp_state_name(const struct hp_machine *hp, int state)
{
    if (state < 0 || state >= HP_NR_STATES)
        return "?";
    return hp->steps[state].in_use ? hp->steps[state].name : "";
}
