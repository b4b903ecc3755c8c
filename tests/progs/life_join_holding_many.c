/*
 * life_join_holding_many.c - a worker takes 100 locks, one at a time, more
 * than its list of noted needs keeps (64): the first ones move into the
 * graph when the list fills, the rest stay in the list until the join,
 * made while the worker still runs.  main joins it holding the first lock
 * and, in a second run, one of the last: both are wait-for cycles.
 *
 * EXPECT: wait-for-cycle table 'thread T2'
 * EXPECT: wait-for-cycle table+* 'thread T3'
 */
#include "progs.h"

#include <unistd.h>

#define N 100
static pthread_mutex_t table[N];
static pthread_barrier_t done;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        OK(pthread_mutex_lock(&table[i]));
        OK(pthread_mutex_unlock(&table[i]));
    }
    pthread_barrier_wait(&done);
    usleep(300 * 1000); /* still running while main joins */
    return NULL;
}

static void join_holding(pthread_mutex_t *m)
{
    pthread_t t = spawn_thread(worker, NULL);
    pthread_barrier_wait(&done);
    OK(pthread_mutex_lock(m));
    join_thread(t);
    OK(pthread_mutex_unlock(m));
}

int main(void)
{
    OK(pthread_barrier_init(&done, NULL, 2));
    join_holding(&table[0]);
    join_holding(&table[N - 2]);
    return 0;
}
