/*
 * limit_locks.c - the lock table fills: max_locks=100 with 1000 live
 * locks.  The validator must say so once (limit-reached), keep the program
 * running with its results unchanged, and not turn the untracked locks'
 * unlocks into bogus unlock-not-held reports.
 *
 * OPTIONS: max_locks=100
 * EXPECT: limit-reached
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: limit_locks: done, 1000 locks, sum 499500
 */
#include "progs.h"

enum { N = 1000 };

int main(void)
{
    static pthread_mutex_t locks[N];
    long sum = 0;
    for (int i = 0; i < N; i++)
        OK(pthread_mutex_init(&locks[i], NULL));
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < N; i++) {
            OK(pthread_mutex_lock(&locks[i]));
            if (round == 0)
                sum += i;
            OK(pthread_mutex_unlock(&locks[i]));
        }
    for (int i = 0; i < N; i++)
        OK(pthread_mutex_destroy(&locks[i]));
    fprintf(stderr, "limit_locks: done, %d locks, sum %ld\n", N, sum);
    return 0;
}
