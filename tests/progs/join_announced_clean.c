/*
 * join_announced_clean.c - the join protocol of pigz's yarn library: a
 * finishing worker takes threads_lock, marks itself done and signals
 * `finished` while holding it; main waits for that signal on threads_lock
 * and joins the worker still holding threads_lock.  The worker took
 * threads_lock in its life, but main only joins once the worker said,
 * under that very lock, that it is past it: the join cannot deadlock.  No
 * report (join_holding.c, without the announcement, is reported).
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static int done;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&threads_lock));
    done = 1;
    OK(pthread_cond_signal(&finished));
    OK(pthread_mutex_unlock(&threads_lock));
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&threads_lock));
    pthread_t t = spawn_thread(worker, NULL);
    while (!done)
        OK(pthread_cond_wait(&finished, &threads_lock));
    join_thread(t);
    OK(pthread_mutex_unlock(&threads_lock));
    return 0;
}
