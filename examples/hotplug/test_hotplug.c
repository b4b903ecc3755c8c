/*
 * test_hotplug.c - cmocka tests of the hotplug state machine: order and
 * symmetry of callbacks, the BP/AP split, rollback after a failure (injected
 * or real), dynamic and multi-instance states, the shadowed fault-injection
 * setting and the hotplug read lock.  The event log is protected by log_lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hotplug.h"

#define MAX_EVENTS 512

struct event {
    int cpu, state;
    bool up;
    int ran_on;       /* hp_this_cpu() of the thread that ran the callback */
    int instance;     /* multi-instance: which one, else -1 */
};

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct event events[MAX_EVENTS];
static int nevents;
static int fail_state = -1, fail_cpu = -1;     /* a real (non-injected) failure */
static struct hp_machine *the_hp;              /* for the shadow test's callback */

static void log_event(unsigned cpu, int state, bool up, int instance)
{
    pthread_mutex_lock(&log_lock);
    if (nevents < MAX_EVENTS)
        events[nevents++] = (struct event){(int)cpu, state, up, hp_this_cpu(), instance};
    pthread_mutex_unlock(&log_lock);
}

static void log_reset(void)
{
    pthread_mutex_lock(&log_lock);
    nevents = 0;
    pthread_mutex_unlock(&log_lock);
}

/* Single-instance callbacks; data carries the state number (set after setup). */
static int cb_up(unsigned cpu, void *data)
{
    int state = *(int *)data;
    log_event(cpu, state, true, -1);
    return state == fail_state && (int)cpu == fail_cpu ? -EIO : 0;
}

static int cb_down(unsigned cpu, void *data)
{
    log_event(cpu, *(int *)data, false, -1);
    return 0;
}

struct inst {
    struct hp_node node;
    int id, state;
    bool fail_up;
};

static int inst_up(unsigned cpu, struct hp_node *n)
{
    struct inst *i = (struct inst *)((char *)n - offsetof(struct inst, node));
    log_event(cpu, i->state, true, i->id);
    return i->fail_up && cpu == 1 ? -EIO : 0;
}

static int inst_down(unsigned cpu, struct hp_node *n)
{
    struct inst *i = (struct inst *)((char *)n - offsetof(struct inst, node));
    log_event(cpu, i->state, false, i->id);
    return 0;
}

/* Five tracked states: two BP, three AP. */
static int st_timers, st_bp, st_start, st_ap1, st_ap2;

static int setup(void **state)
{
    (void)state;
    log_reset();
    fail_state = fail_cpu = -1;
    the_hp = hp_create(4);
    assert_non_null(the_hp);
    st_timers = hp_setup_state(the_hp, HP_TIMERS_PREPARE, "t:timers", cb_up, cb_down, &st_timers, true);
    st_bp = hp_setup_state(the_hp, HP_BP_PREPARE_DYN, "t:bp", cb_up, cb_down, &st_bp, true);
    st_start = hp_setup_state(the_hp, HP_AP_STARTING, "t:starting", cb_up, cb_down, &st_start, true);
    st_ap1 = hp_setup_state(the_hp, HP_AP_ONLINE_DYN, "t:ap1", cb_up, cb_down, &st_ap1, true);
    st_ap2 = hp_setup_state(the_hp, HP_AP_ONLINE_DYN, "t:ap2", cb_up, cb_down, &st_ap2, true);
    assert_int_equal(st_timers, HP_TIMERS_PREPARE);
    assert_int_equal(st_bp, HP_BP_PREPARE_DYN);
    assert_int_equal(st_start, HP_AP_STARTING);
    assert_int_equal(st_ap1, HP_AP_ONLINE_DYN);
    assert_int_equal(st_ap2, HP_AP_ONLINE_DYN + 1);
    log_reset();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    hp_destroy(the_hp);
    the_hp = NULL;
    return 0;
}

/* The tracked events of one cpu, in order, as "+state" / "-state" codes. */
static int cpu_events(int cpu, int *out, int max)
{
    int n = 0;
    pthread_mutex_lock(&log_lock);
    for (int i = 0; i < nevents && n < max; i++)
        if (events[i].cpu == cpu)
            out[n++] = events[i].up ? events[i].state : -events[i].state;
    pthread_mutex_unlock(&log_lock);
    return n;
}

static void test_boot(void **state)
{
    (void)state;
    assert_int_equal(hp_num_cpus(the_hp), 4);
    assert_int_equal(hp_cpu_state(the_hp, 0), HP_ONLINE);
    assert_true(hp_cpu_online(the_hp, 0));
    for (unsigned c = 1; c < 4; c++) {
        assert_int_equal(hp_cpu_state(the_hp, c), HP_OFFLINE);
        assert_false(hp_cpu_online(the_hp, c));
    }
    assert_int_equal(hp_num_online(the_hp), 1);
    assert_int_equal(hp_cpu_down(the_hp, 0), -EBUSY);      /* the last online CPU */
    assert_int_equal(hp_cpu_up(the_hp, 9), -EINVAL);
}

static void test_order_and_symmetry(void **state)
{
    (void)state;
    int ev[32], n;
    const int want_up[] = {st_timers, st_bp, st_start, st_ap1, st_ap2};

    assert_int_equal(hp_cpu_up(the_hp, 2), 0);
    assert_true(hp_cpu_online(the_hp, 2));
    n = cpu_events(2, ev, 32);
    assert_int_equal(n, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(ev[i], want_up[i]);
    /* BP states ran on the controlling thread, AP states on cpuhp/2. */
    pthread_mutex_lock(&log_lock);
    for (int i = 0; i < nevents; i++)
        assert_int_equal(events[i].ran_on, events[i].state > HP_BP_LAST ? 2 : -1);
    pthread_mutex_unlock(&log_lock);

    log_reset();
    assert_int_equal(hp_cpu_down(the_hp, 2), 0);
    assert_int_equal(hp_cpu_state(the_hp, 2), HP_OFFLINE);
    n = cpu_events(2, ev, 32);
    assert_int_equal(n, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(ev[i], -want_up[4 - i]);
}

/* Startup of `failing` fails: the states before it are torn down in reverse. */
static void check_up_rollback(int failing, int expect_err)
{
    const int order[] = {st_timers, st_bp, st_start, st_ap1, st_ap2};
    int ev[32], n = cpu_events(1, ev, 32), k = 0, i = 0;

    while (order[k] != failing)
        k++;
    /* callbacks up to the failing one (a real failure logs its own call) */
    int ups = expect_err == -EIO ? k + 1 : k;
    assert_int_equal(n, ups + k);
    for (; i < ups; i++)
        assert_int_equal(ev[i], order[i]);
    for (int j = k - 1; j >= 0; j--, i++)
        assert_int_equal(ev[i], -order[j]);
    assert_int_equal(hp_cpu_state(the_hp, 1), HP_OFFLINE);
    assert_false(hp_cpu_online(the_hp, 1));
}

static void test_injected_failure_rolls_back(void **state)
{
    (void)state;
    const int targets[] = {st_bp, st_start, st_ap2};
    for (unsigned t = 0; t < 3; t++) {
        log_reset();
        assert_int_equal(hp_inject_fail(the_hp, 1, targets[t]), 0);
        assert_int_equal(hp_cpu_up(the_hp, 1), -EAGAIN);
        check_up_rollback(targets[t], -EAGAIN);
    }
    /* One-shot: the next attempt succeeds. */
    assert_int_equal(hp_cpu_up(the_hp, 1), 0);
    struct hp_stats s;
    hp_get_stats(the_hp, &s);
    assert_int_equal(s.injected, 3);
    assert_int_equal(s.failed, 3);
    assert_int_equal(s.rollback_errors, 0);
}

static void test_real_failure_rolls_back(void **state)
{
    (void)state;
    fail_state = st_ap1;
    fail_cpu = 1;
    assert_int_equal(hp_cpu_up(the_hp, 1), -EIO);
    check_up_rollback(st_ap1, -EIO);
    fail_state = -1;
}

static void test_teardown_failure_rolls_forward(void **state)
{
    (void)state;
    int ev[32];
    assert_int_equal(hp_cpu_up(the_hp, 3), 0);
    log_reset();
    assert_int_equal(hp_inject_fail(the_hp, 3, st_bp), 0);
    assert_int_equal(hp_cpu_down(the_hp, 3), -EAGAIN);
    assert_int_equal(hp_cpu_state(the_hp, 3), HP_ONLINE);
    assert_true(hp_cpu_online(the_hp, 3));
    /* down: ap2 ap1 starting timers? no: bp fails before timers; then back up */
    const int want[] = {-st_ap2, -st_ap1, -st_start, st_start, st_ap1, st_ap2};
    assert_int_equal(cpu_events(3, ev, 32), 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(ev[i], want[i]);
}

static void test_partial_target(void **state)
{
    (void)state;
    int ev[32];
    assert_int_equal(hp_cpu_set_target(the_hp, 1, st_start), 0);
    assert_int_equal(hp_cpu_state(the_hp, 1), st_start);
    assert_false(hp_cpu_online(the_hp, 1));
    assert_int_equal(hp_cpu_set_target(the_hp, 1, st_bp), 0);
    assert_int_equal(hp_cpu_set_target(the_hp, 1, HP_ONLINE), 0);
    const int want[] = {st_timers, st_bp, st_start, -st_start, st_start, st_ap1, st_ap2};
    assert_int_equal(cpu_events(1, ev, 32), 7);
    for (int i = 0; i < 7; i++)
        assert_int_equal(ev[i], want[i]);
    assert_int_equal(hp_cpu_set_target(the_hp, 1, HP_NR_STATES), -EINVAL);
}

static int dyn_state;

static void test_dynamic_state(void **state)
{
    (void)state;
    assert_int_equal(hp_cpu_up(the_hp, 1), 0);
    log_reset();
    dyn_state = hp_setup_state(the_hp, HP_AP_ONLINE_DYN, "t:dyn", cb_up, cb_down, &dyn_state, true);
    assert_int_equal(dyn_state, HP_AP_ONLINE_DYN + 2);
    /* Ran on CPUs 0 and 1 (online), on their own AP threads, not on 2 and 3. */
    pthread_mutex_lock(&log_lock);
    assert_int_equal(nevents, 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(events[i].cpu, i);
        assert_int_equal(events[i].ran_on, i);
        assert_true(events[i].up);
    }
    pthread_mutex_unlock(&log_lock);
    assert_int_equal(hp_cpu_up(the_hp, 2), 0);         /* new CPUs run it too */
    int ev[32];
    assert_int_equal(cpu_events(2, ev, 32), 6);
    assert_int_equal(ev[5], dyn_state);
    log_reset();
    assert_int_equal(hp_remove_state(the_hp, dyn_state, true), 0);
    pthread_mutex_lock(&log_lock);
    assert_int_equal(nevents, 3);
    for (int i = 0; i < 3; i++)
        assert_false(events[i].up);
    pthread_mutex_unlock(&log_lock);
    assert_string_equal(hp_state_name(the_hp, dyn_state), "");
    assert_int_equal(hp_remove_state(the_hp, dyn_state, true), -EINVAL);
    assert_int_equal(hp_remove_state(the_hp, HP_ONLINE, true), -EINVAL);  /* built in */
}

static void test_dynamic_state_failure(void **state)
{
    (void)state;
    assert_int_equal(hp_cpu_up(the_hp, 1), 0);
    assert_int_equal(hp_cpu_up(the_hp, 2), 0);
    log_reset();
    dyn_state = HP_AP_ONLINE_DYN + 2;     /* the slot it will get: cb_up reads it */
    fail_state = dyn_state;
    fail_cpu = 1;
    assert_int_equal(hp_setup_state(the_hp, HP_AP_ONLINE_DYN, "t:dynf", cb_up, cb_down, &dyn_state, true),
                     -EIO);
    fail_state = -1;
    /* cpu0 up, cpu1 up (failed), cpu0 down; cpu2 never reached. */
    pthread_mutex_lock(&log_lock);
    assert_int_equal(nevents, 3);
    assert_true(events[0].cpu == 0 && events[0].up);
    assert_true(events[1].cpu == 1 && events[1].up);
    assert_true(events[2].cpu == 0 && !events[2].up);
    pthread_mutex_unlock(&log_lock);
    assert_string_equal(hp_state_name(the_hp, dyn_state), "");   /* slot free again */
}

static void test_multi_instance(void **state)
{
    (void)state;
    struct inst a = {.id = 1}, b = {.id = 2};
    int ms = hp_setup_multi_state(the_hp, HP_AP_ONLINE_DYN, "t:multi", inst_up, inst_down);
    assert_true(ms >= HP_AP_ONLINE_DYN);
    a.state = b.state = ms;
    assert_int_equal(hp_state_add_instance(the_hp, ms, &a.node, true), 0);
    assert_int_equal(nevents, 1);                           /* cpu0 only */
    assert_int_equal(hp_cpu_up(the_hp, 1), 0);
    assert_int_equal(hp_state_add_instance(the_hp, ms, &b.node, true), 0);
    log_reset();
    assert_int_equal(hp_remove_state(the_hp, ms, true), -EBUSY);
    assert_int_equal(hp_state_remove_instance(the_hp, ms, &a.node, true), 0);
    pthread_mutex_lock(&log_lock);
    assert_int_equal(nevents, 2);                           /* a, on cpus 0 and 1 */
    for (int i = 0; i < 2; i++)
        assert_true(events[i].instance == 1 && !events[i].up && events[i].ran_on == events[i].cpu);
    pthread_mutex_unlock(&log_lock);
    assert_int_equal(hp_state_remove_instance(the_hp, ms, &a.node, true), -ENOENT);

    /* A failing instance during a walk: earlier instances and states roll back. */
    assert_int_equal(hp_cpu_down(the_hp, 1), 0);
    a.fail_up = true;
    assert_int_equal(hp_state_add_instance(the_hp, ms, &a.node, false), 0);
    log_reset();
    assert_int_equal(hp_cpu_up(the_hp, 1), -EIO);
    assert_int_equal(hp_cpu_state(the_hp, 1), HP_OFFLINE);
    int ev[32], n = cpu_events(1, ev, 32), ups = 0, downs = 0;
    for (int i = 0; i < n; i++)
        ev[i] > 0 ? ups++ : downs++;
    /* five states + a (failed) [+ b, tried first or after]; everything undone */
    assert_true(ups == 6 || ups == 7);
    assert_int_equal(downs, ups - 1);
    a.fail_up = false;
    assert_int_equal(hp_state_remove_instance(the_hp, ms, &a.node, false), 0);
    assert_int_equal(hp_state_remove_instance(the_hp, ms, &b.node, true), 0);
    assert_int_equal(hp_remove_state(the_hp, ms, false), 0);
}

/* A callback of an early state writes the setting for a later one mid-walk. */
static int shadow_target;
static int cb_write_setting(unsigned cpu, void *data)
{
    (void)data;
    hp_inject_fail(the_hp, cpu, shadow_target);
    return 0;
}

static void test_setting_applied_at_safe_point(void **state)
{
    (void)state;
    shadow_target = st_ap2;
    int s = hp_setup_state(the_hp, HP_BP_PREPARE_DYN, "t:writer", cb_write_setting, NULL, NULL, false);
    assert_true(s > 0);
    /* Written during this walk: must not bite until the next operation. */
    assert_int_equal(hp_cpu_up(the_hp, 1), 0);
    assert_int_equal(hp_remove_state(the_hp, s, false), 0);
    assert_int_equal(hp_cpu_down(the_hp, 1), -EAGAIN);      /* applied now: fails at ap2 */
    assert_int_equal(hp_cpu_state(the_hp, 1), HP_ONLINE);
    assert_int_equal(hp_cpu_down(the_hp, 1), 0);
    assert_int_equal(hp_inject_fail(the_hp, 1, HP_NR_STATES), -EINVAL);
}

struct upper {
    struct hp_machine *hp;
    int ret;
};

static void *do_up(void *arg)
{
    struct upper *u = arg;
    u->ret = hp_cpu_up(u->hp, 3);
    return NULL;
}

static void test_read_lock_holds_cpus(void **state)
{
    (void)state;
    struct upper u = {the_hp, -1};
    pthread_t th;
    hp_read_lock(the_hp);
    assert_int_equal(pthread_create(&th, NULL, do_up, &u), 0);
    usleep(50 * 1000);
    assert_int_equal(hp_cpu_state(the_hp, 3), HP_OFFLINE);  /* the writer waits */
    hp_read_unlock(the_hp);
    pthread_join(th, NULL);
    assert_int_equal(u.ret, 0);
    assert_int_equal(hp_cpu_state(the_hp, 3), HP_ONLINE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_boot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_order_and_symmetry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_injected_failure_rolls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_real_failure_rolls_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_teardown_failure_rolls_forward, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_target, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_state, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_state_failure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multi_instance, setup, teardown),
        cmocka_unit_test_setup_teardown(test_setting_applied_at_safe_point, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_lock_holds_cpus, setup, teardown),
    };
    return cmocka_run_group_tests_name("examples.hotplug", tests, NULL, NULL);
}
