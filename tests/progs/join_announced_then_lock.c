/*
 * join_announced_then_lock.c - join_announced_unit_clean.c's true twin: the
 * worker announces under threads_lock that it is done, but then takes
 * stats_lock once more on its way out; main waits for the announcement and
 * joins holding stats_lock.  Had main taken stats_lock first, the worker
 * would block on it and the join would never end.  An announcement covers
 * only what the thread did before it, so this is still reported.
 *
 * EXPECT: wait-for-cycle stats_lock 'thread T2'
 */
#include "progs.h"

#include <unistd.h>

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static int done, exits;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&stats_lock));
    exits = 0;
    OK(pthread_mutex_unlock(&stats_lock));
    OK(pthread_mutex_lock(&threads_lock));
    done = 1;
    OK(pthread_cond_signal(&finished));
    OK(pthread_mutex_unlock(&threads_lock));
    OK(pthread_mutex_lock(&stats_lock)); /* after the announcement */
    exits++;
    OK(pthread_mutex_unlock(&stats_lock));
    usleep(100 * 1000);
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&threads_lock));
    pthread_t t = spawn_thread(worker, NULL);
    while (!done)
        OK(pthread_cond_wait(&finished, &threads_lock));
    OK(pthread_mutex_unlock(&threads_lock));
    usleep(30 * 1000); /* the worker has taken stats_lock again by now */
    OK(pthread_mutex_lock(&stats_lock));
    join_thread(t);
    OK(pthread_mutex_unlock(&stats_lock));
    printf("exits %d\n", exits);
    return 0;
}
