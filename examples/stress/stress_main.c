/*
 * stress_main.c - command line of the stress driver: options, the phases
 * (stress, seeded bugs, final drain and checks) and the summary.  Runs on
 * the main thread, which is also the hotplug controller; its locks are the
 * ones of stress_world.c.
 *
 *   uld_stress [--cpus N] [--seconds S] [--iterations N] [--seed N]
 *              [--bug NAME]... [--bug all] [--list-bugs] [--quiet]
 *
 * Exit status: 0 all invariants held, 1 an invariant failed, 2 bad usage.
 */
#define _GNU_SOURCE
#include "stress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: uld_stress [options]\n"
            "  --cpus N        simulated CPUs, 2..%d (default 4)\n"
            "  --seconds S     stop the stress phase after S seconds (default 5 when\n"
            "                  --iterations is not given either)\n"
            "  --iterations N  stop after N hotplug operations\n"
            "  --seed N        random seed, for repeatable runs (default 1)\n"
            "  --bug NAME      seed a lock-order bug (repeatable); --bug all seeds every one\n"
            "  --list-bugs     print NAME<TAB>kind<TAB>locks<TAB>description per bug and exit\n"
            "  --quiet         print only the summary\n",
            HP_MAX_CPUS);
}

static int parse_number(const char *opt, const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < min || v > max) {
        fprintf(stderr, "uld_stress: %s: invalid value '%s'\n", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* 0: run, 1: exit 0 (listed), -1: exit 2 (bad usage). */
static int parse_args(int argc, char **argv, struct stress_opts *o)
{
    double v;
    *o = (struct stress_opts){.ncpus = 4, .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--list-bugs")) {
            stress_list_bugs();
            return 1;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = true;
            continue;                 /* a flag: no value to skip */
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 1;
        } else if (!val) {
            fprintf(stderr, "uld_stress: unknown option or missing value: %s\n", a);
            usage(stderr);
            return -1;
        } else if (!strcmp(a, "--cpus")) {
            if (parse_number(a, val, 2, HP_MAX_CPUS, &v))
                return -1;
            o->ncpus = (unsigned)v;
        } else if (!strcmp(a, "--seconds")) {
            if (parse_number(a, val, 0.001, 86400, &v))
                return -1;
            o->seconds = v;
        } else if (!strcmp(a, "--iterations")) {
            if (parse_number(a, val, 0, 1e12, &v))
                return -1;
            o->iterations = (unsigned long)v;
            o->iterations_given = true;
        } else if (!strcmp(a, "--seed")) {
            if (parse_number(a, val, 0, 1.8e19, &v))
                return -1;
            o->seed = (uint64_t)v;
        } else if (!strcmp(a, "--bug")) {
            int b = stress_bug_lookup(val);
            if (b < 0) {
                fprintf(stderr, "uld_stress: unknown bug '%s' (see --list-bugs)\n", val);
                return -1;
            }
            o->bugs |= b == BUG_COUNT ? (1u << BUG_COUNT) - 1 : 1u << b;
        } else {
            fprintf(stderr, "uld_stress: unknown option: %s\n", a);
            usage(stderr);
            return -1;
        }
        i++;
    }
    if (o->seconds == 0 && !o->iterations_given)
        o->seconds = 5;
    return 0;
}

static void print_header(const struct stress_opts *o)
{
    printf("uld_stress: %u cpus, seed %llu, ", o->ncpus, (unsigned long long)o->seed);
    if (o->seconds > 0)
        printf("%.3g s", o->seconds);
    if (o->iterations_given)
        printf("%s%lu iterations", o->seconds > 0 ? " / " : "", o->iterations);
    printf(", bugs:");
    if (!o->bugs)
        printf(" none");
    for (int b = 0; b < BUG_COUNT; b++)
        if (o->bugs & (1u << b))
            printf(" %s", stress_bug_name(b));
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int r = parse_args(argc, argv, &W.opt);
    if (r)
        return r > 0 ? 0 : 2;
    if (!W.opt.quiet)
        print_header(&W.opt);
    stress_signal_setup();
    if (stress_world_init() != 0) {
        fprintf(stderr, "uld_stress: set-up failed\n");
        return 1;
    }
    if (!W.opt.iterations_given || W.opt.iterations > 0)
        stress_world_run();
    if (W.opt.bugs)
        stress_run_bugs();
    int violations = stress_world_finish();
    stress_print_summary(stdout);
    printf("invariants: %s", violations ? "FAILED" : "ok");
    if (violations)
        printf(" (%d violations)", violations);
    printf("\n");
    stress_world_destroy();
    return violations ? 1 : 0;
}
