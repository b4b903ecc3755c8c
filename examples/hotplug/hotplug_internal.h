/*
 * hotplug_internal.h - the machine's data, shared by hotplug.c (operations,
 * AP threads) and hotplug_state.c (registration).
 *
 * Who protects what:
 *   hp->lock (cpu_hotplug_lock)   every CPU's walk: held for writing by the
 *                                 operation; readers see states stand still
 *   hp->state_mutex               the step table and instance lists are
 *                                 written under it and the read lock; a walk
 *                                 reads them under the write lock
 *   c->lock (cpuhp[N].lock)       c->req, c->pending, c->result (hand-off)
 *   c->state                      atomic; written only by the thread walking
 *                                 the CPU (BP or its AP, one at a time)
 *   c->fail                       the walking thread (hand-off orders it)
 */
#ifndef HOTPLUG_INTERNAL_H
#define HOTPLUG_INTERNAL_H

#include "hotplug.h"

#include <pthread.h>
#include <stdatomic.h>

#define HP_NAME_LEN 32
#define HP_FAIL_NONE (-1)      /* no fault armed */
#define HP_FAIL_UNSET (-2)     /* shadow: nothing written since last applied */

struct hp_step {
    char name[HP_NAME_LEN];
    hp_single_fn startup, teardown;
    hp_multi_fn startup_multi, teardown_multi;
    void *data;
    struct hp_node *instances;   /* multi-instance states only */
    bool multi, in_use, builtin;
};

enum hp_req_kind { HP_REQ_WALK, HP_REQ_CALL, HP_REQ_STOP };

/* Work handed from the controlling thread to a CPU's AP thread. */
struct hp_request {
    enum hp_req_kind kind;
    int target;             /* WALK: state to reach */
    bool rollback;          /* WALK: undoing a failure, ignore errors */
    int state;              /* CALL: one state's callback */
    bool up;
    struct hp_node *node;   /* CALL: one instance, or NULL for all */
};

struct hp_cpu {
    struct hp_machine *hp;
    unsigned id;
    _Atomic int state;
    _Atomic int fail_shadow; /* written by hp_inject_fail(); HP_FAIL_UNSET if none */
    int fail;                /* the armed fault, HP_FAIL_NONE if none */
    _Atomic bool alive;      /* between HP_BRINGUP_CPU up and down */
    pthread_mutex_t lock;    /* "cpuhp[N].lock" */
    pthread_cond_t kick;     /* AP thread waits for work */
    pthread_cond_t done;     /* controlling thread waits for the AP */
    struct hp_request req;
    bool pending;
    int result;
    pthread_t thread;
};

struct hp_machine {
    pthread_rwlock_t lock;          /* "cpu_hotplug_lock" */
    pthread_mutex_t state_mutex;    /* "cpuhp_state_mutex" */
    _Atomic unsigned writers_waiting;
    unsigned ncpus;
    _Atomic uint64_t online_mask;
    struct hp_step steps[HP_NR_STATES];
    struct hp_cpu cpus[HP_MAX_CPUS];
    struct {
        _Atomic uint64_t ups, downs, failed, injected, rollback_errors, ap_requests;
    } stats;
};

/* hotplug.c: run one state's callback(s) for one CPU, here or on its AP thread. */
int hp_issue_call(struct hp_machine *hp, struct hp_cpu *c, int state, bool up,
                  struct hp_node *node);
/* hotplug_state.c: the built-in steps of a new machine. */
void hp_steps_init(struct hp_machine *hp);

static inline bool hp_state_on_ap(int state)
{
    return state > HP_BP_LAST;
}

#endif /* HOTPLUG_INTERNAL_H */
