/*
 * measure.h - the clock and the peak RSS that the benchmarks print.
 */
#ifndef ULD_BENCH_MEASURE_H
#define ULD_BENCH_MEASURE_H

#include <stdio.h>
#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* VmHWM: unlike getrusage's ru_maxrss it does not carry a parent's peak across exec. */
static inline long peak_rss_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

#endif
