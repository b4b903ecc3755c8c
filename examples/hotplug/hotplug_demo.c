/*
 * hotplug_demo.c - a small driver for the hotplug library: registers a few
 * traced states (BP and AP, one multi-instance), brings the CPUs up and
 * down, injects a failure to show the rollback, and prints what ran where.
 * Exits non-zero if the CPUs did not end where they should.  The trace
 * lines are printed under trace_lock.
 *
 *   hotplug_demo [--cpus N] [--quiet]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotplug.h"
#include "ulockdep.h"

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hp_machine *demo_hp;
static int quiet;
static int balance[HP_MAX_CPUS];     /* startups minus teardowns, under trace_lock */

static void trace(unsigned cpu, const char *what, bool up)
{
    int me = hp_this_cpu();
    pthread_mutex_lock(&trace_lock);
    balance[cpu] += up ? 1 : -1;
    if (!quiet)
        printf("  cpu%u %-9s %-14s on %s%d\n", cpu, up ? "startup" : "teardown", what,
               me < 0 ? "BP" : "cpuhp/", me < 0 ? 0 : me);
    pthread_mutex_unlock(&trace_lock);
}

static int demo_up(unsigned cpu, void *data)
{
    trace(cpu, data, true);
    return 0;
}

static int demo_down(unsigned cpu, void *data)
{
    trace(cpu, data, false);
    return 0;
}

struct demo_dev {
    struct hp_node node;
    char name[16];
};

static int dev_up(unsigned cpu, struct hp_node *n)
{
    trace(cpu, ((struct demo_dev *)((char *)n - offsetof(struct demo_dev, node)))->name, true);
    return 0;
}

static int dev_down(unsigned cpu, struct hp_node *n)
{
    trace(cpu, ((struct demo_dev *)((char *)n - offsetof(struct demo_dev, node)))->name, false);
    return 0;
}

static void say(const char *msg)
{
    if (!quiet)
        printf("%s\n", msg);
}

static int run_demo(unsigned ncpus)
{
    struct demo_dev devs[2] = {{.name = "dev0"}, {.name = "dev1"}};
    int errors = 0;

    hp_setup_state(demo_hp, HP_BP_PREPARE_DYN, "demo:prepare", demo_up, demo_down,
                   "demo:prepare", true);
    hp_setup_state(demo_hp, HP_AP_STARTING, "demo:starting", demo_up, demo_down,
                   "demo:starting", true);
    int ms = hp_setup_multi_state(demo_hp, HP_AP_ONLINE_DYN, "demo:dev", dev_up, dev_down);
    hp_state_add_instance(demo_hp, ms, &devs[0].node, true);
    hp_state_add_instance(demo_hp, ms, &devs[1].node, true);

    for (unsigned c = 1; c < ncpus; c++) {
        printf("cpu%u up\n", c);
        errors += hp_cpu_up(demo_hp, c) != 0;
    }
    say("failure injected at demo:starting on cpu1, then cpu1 down: rolls forward");
    hp_inject_fail(demo_hp, 1, HP_AP_STARTING);
    errors += hp_cpu_down(demo_hp, 1) != -EAGAIN;
    errors += hp_cpu_state(demo_hp, 1) != HP_ONLINE;
    for (unsigned c = ncpus - 1; c >= 1; c--) {
        printf("cpu%u down\n", c);
        errors += hp_cpu_down(demo_hp, c) != 0;
    }
    say("failure injected at demo:dev on cpu1, then cpu1 up: rolls back");
    hp_inject_fail(demo_hp, 1, ms);
    errors += hp_cpu_up(demo_hp, 1) != -EAGAIN;
    errors += hp_cpu_state(demo_hp, 1) != HP_OFFLINE;
    hp_state_remove_instance(demo_hp, ms, &devs[1].node, true);
    hp_state_remove_instance(demo_hp, ms, &devs[0].node, true);
    hp_remove_state(demo_hp, ms, true);
    return errors;
}

int main(int argc, char **argv)
{
    unsigned ncpus = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
            ncpus = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--quiet"))
            quiet = 1;
        else {
            fprintf(stderr, "usage: %s [--cpus N] [--quiet]\n", argv[0]);
            return 2;
        }
    }
    if (ncpus < 2 || ncpus > HP_MAX_CPUS) {
        fprintf(stderr, "hotplug_demo: --cpus must be 2..%d\n", HP_MAX_CPUS);
        return 2;
    }
    demo_hp = hp_create(ncpus);
    if (!demo_hp)
        return 1;
    int errors = run_demo(ncpus);
    /* cpu0 still runs demo:prepare and demo:starting: 2 startups; the rest 0 */
    for (unsigned c = 0; c < ncpus; c++)
        errors += balance[c] != (c == 0 ? 2 : 0);
    hp_destroy(demo_hp);
    printf("hotplug_demo: %s\n", errors ? "FAILED" : "ok");
    return errors ? 1 : 0;
}
