/*
 * tw_bench.c - micro-benchmark of the timer wheel's fast paths: arming and
 * cancelling (most timers are cancelled before they fire), re-arming a
 * pending timer, and expiry.  Prints ns per operation; single-threaded, so
 * every base lock is uncontended.  Not a timed test: numbers vary by host.
 *
 *   tw_bench [--ops N] [--timers N]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timerwheel.h"

static uint64_t fired;

static void bench_fire(struct tw_timer *t)
{
    (void)t;
    fired++;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(int argc, char **argv)
{
    unsigned long ops = 2000000, ntimers = 10000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ops") && i + 1 < argc)
            ops = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--timers") && i + 1 < argc)
            ntimers = strtoul(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: %s [--ops N] [--timers N]\n", argv[0]);
            return 2;
        }
    }
    if (ntimers == 0 || ops == 0)
        return 2;
    struct tw_wheel *w = tw_create(1);
    struct tw_timer *t = calloc(ntimers, sizeof(*t));
    if (!w || !t)
        return 1;
    for (unsigned long i = 0; i < ntimers; i++)
        tw_timer_init(&t[i], bench_fire, "bench_timer");
    uint64_t s = 42;

    double t0 = now_ns();
    for (unsigned long i = 0; i < ops; i++) {
        struct tw_timer *x = &t[i % ntimers];
        tw_mod_timer(w, 0, x, tw_jiffies(w) + 1 + rnd(&s) % 100000);
        tw_del_timer(w, x);
    }
    double t1 = now_ns();
    for (unsigned long i = 0; i < ops; i++)
        tw_mod_timer(w, 0, &t[i % ntimers], tw_jiffies(w) + 1 + rnd(&s) % 100000);
    double t2 = now_ns();
    tw_advance(w, 200000);
    tw_run_cpu(w, 0);
    double t3 = now_ns();

    printf("arm+cancel: %8.1f ns/pair  (%lu pairs)\n", (t1 - t0) / (double)ops, ops);
    printf("re-arm:     %8.1f ns/op    (%lu ops over %lu timers)\n", (t2 - t1) / (double)ops,
           ops, ntimers);
    printf("expiry:     %8.1f ns/timer (%llu fired)\n",
           fired ? (t3 - t2) / (double)fired : 0.0, (unsigned long long)fired);
    for (unsigned long i = 0; i < ntimers; i++)
        tw_timer_destroy(&t[i]);
    free(t);
    tw_destroy(w);
    return fired == (ntimers < ops ? ntimers : ops) ? 0 : 1;
}
