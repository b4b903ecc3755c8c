/*
 * hang_cond_lock_clean.c - hang_cond_lock.c's twin: main holds state_lock
 * and waits on `changed` for longer than the watchdog period, but the
 * worker needs no lock main holds: it sleeps, then signals.  A long wait
 * alone is no hang: no report.
 *
 * OPTIONS: watchdog=1
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cond_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int done;

static void *worker(void *arg)
{
    struct timespec ts = {1, 700 * 1000 * 1000};
    nanosleep(&ts, NULL);
    OK(pthread_mutex_lock(&cond_mutex));
    done = 1;
    OK(pthread_cond_signal(&changed));
    OK(pthread_mutex_unlock(&cond_mutex));
    return arg;
}

int main(void)
{
    pthread_t t = spawn_thread(worker, NULL);
    OK(pthread_mutex_lock(&state_lock));
    OK(pthread_mutex_lock(&cond_mutex));
    while (!done)
        OK(pthread_cond_wait(&changed, &cond_mutex));
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_unlock(&state_lock));
    join_thread(t);
    return 0;
}
