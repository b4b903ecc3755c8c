/*
 * hang_join_lock.c - stop() that really hangs, with watchdog=1: main holds
 * state_lock and joins the worker, which blocks on state_lock.  Two
 * reports: the wait-for cycle (the worker's acquisition closes it, before
 * it blocks) and, a second later, the live hang through the join: the
 * worker is blocked on a lock whose holder waits for the worker's end,
 * which only the worker itself can bring (certain).
 *
 * OPTIONS: watchdog=1
 * HANGS: 4
 * EXPECT: wait-for-cycle state_lock 'thread T2'
 * EXPECT: hang-through-wait state_lock 'thread T2'
 * EXPECT-STDERR: ended only by T2, the blocked thread itself \(certain\)
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t go;

static void *worker(void *arg)
{
    pthread_barrier_wait(&go);
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL); /* main is in the join */
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
