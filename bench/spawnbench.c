/*
 * spawnbench - the fixed cost of a thread: create, lock one mutex, exit,
 * joined before the next one starts (a program with short-lived threads).
 * Run it natively and under LD_PRELOAD=libulockdep.so and compare.
 *
 *   spawnbench [--threads N]      (default 2000)
 */
#include "measure.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
static long locked;

static void *worker(void *arg)
{
    pthread_mutex_lock(&shared);
    locked++;
    pthread_mutex_unlock(&shared);
    return arg;
}

int main(int argc, char **argv)
{
    long n = 2000;
    if (argc == 3 && !strcmp(argv[1], "--threads"))
        n = atol(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: spawnbench [--threads N]\n");
        return 2;
    }
    if (n < 1)
        return 2;
    double t0 = now();
    for (long i = 0; i < n; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, worker, NULL) != 0) {
            perror("spawnbench: pthread_create");
            return 1;
        }
        pthread_join(t, NULL);
    }
    double elapsed = now() - t0;
    if (locked != n) {
        fprintf(stderr, "spawnbench: %ld of %ld threads locked\n", locked, n);
        return 1;
    }
    printf("threads=%ld us_per_thread=%.1f peak_rss_kb=%ld\n", n, elapsed * 1e6 / (double)n,
           peak_rss_kb());
    return 0;
}
