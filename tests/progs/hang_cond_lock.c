/*
 * hang_cond_lock.c - a live hang through a wait that no lock order
 * predicts: main holds state_lock and waits on `changed` for the worker's
 * signal; the worker must take state_lock before it can signal, and
 * blocks on it.  Nothing is ever signalled.  The worker signalled
 * `changed` once before (without state_lock), so the wait-for rule has no
 * evidence, but with watchdog=1 the watchdog sees the worker blocked on a
 * lock whose holder is blocked in a wait that only the worker ever ended:
 * hang-through-wait, naming the lock and the condvar, and saying the
 * blocked thread is the waker (certain).
 *
 * OPTIONS: watchdog=1
 * HANGS: 4
 * EXPECT: hang-through-wait state_lock changed
 * EXPECT-STDERR: ended only by T2, the blocked thread itself \(certain\)
 * EXPECT-STDERR: (?s)\[hang-through-wait\].*?in worker\+[^\n]*hang_cond_lock\.c:{{line:blocked}}\)
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cond_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int ready, done;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&cond_mutex));
    ready = 1;
    OK(pthread_cond_signal(&changed));
    OK(pthread_mutex_unlock(&cond_mutex));
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL); /* main is waiting again, now holding state_lock */
    OK(pthread_mutex_lock(&state_lock)); /* blocks forever @line:blocked */
    OK(pthread_mutex_lock(&cond_mutex));
    done = 1;
    OK(pthread_cond_signal(&changed));
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_unlock(&state_lock));
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&cond_mutex));
    pthread_t t = spawn_thread(worker, NULL);
    while (!ready)
        OK(pthread_cond_wait(&changed, &cond_mutex));
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_lock(&state_lock));
    OK(pthread_mutex_lock(&cond_mutex));
    while (!done)
        OK(pthread_cond_wait(&changed, &cond_mutex)); /* never signalled */
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_unlock(&state_lock));
    join_thread(t);
    return 0;
}
