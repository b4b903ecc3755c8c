/*
 * limit_held.c - one thread holds more locks than the validator's per-thread
 * held-lock stack keeps (1024).  The deeper acquisitions are not checked,
 * and that must be visible where users look (JSON, SARIF, the summary), not
 * only as a line on stderr: one limit-reached report, however many locks
 * go over the bound.  Everything is released in reverse order: no misuse.
 *
 * EXPECT: limit-reached
 * EXPECT-STDERR: held-lock table is full \(1024 entries\)
 */
#include "progs.h"

#define NLOCKS 1100

static pthread_mutex_t locks[NLOCKS];

int main(void)
{
    for (int i = 0; i < NLOCKS; i++)
        OK(pthread_mutex_init(&locks[i], NULL));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < NLOCKS; i++)
            OK(pthread_mutex_lock(&locks[i]));
        for (int i = NLOCKS - 1; i >= 0; i--)
            OK(pthread_mutex_unlock(&locks[i]));
    }
    for (int i = 0; i < NLOCKS; i++)
        OK(pthread_mutex_destroy(&locks[i]));
    return 0;
}
