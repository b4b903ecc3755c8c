/*
 * join_holding_before.c - the order that really hangs: main takes
 * state_lock and starts joining before the worker asks for state_lock.
 * The report comes from the worker, before it blocks: its end is waited
 * for by a thread holding the lock it is about to take.  The worker's
 * lock call then blocks forever (HANGS).
 *
 * HANGS: 3
 * EXPECT: wait-for-cycle state_lock 'thread T2'
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t go;

static void *worker(void *arg)
{
    pthread_barrier_wait(&go);
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL); /* let main get into the join */
    OK(pthread_mutex_lock(&state_lock)); /* blocks forever */
    OK(pthread_mutex_unlock(&state_lock));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&go, NULL, 2));
    pthread_t t = spawn_thread(worker, NULL);
    OK(pthread_mutex_lock(&state_lock));
    pthread_barrier_wait(&go);
    join_thread(t);
    OK(pthread_mutex_unlock(&state_lock));
    return 0;
}
