/*
 * join_announced_loop.h - the program of join_announced_loop_then_lock.c
 * and join_announced_loop_clean.c: a pool worker that notifies under a
 * lock at every job.  Each job takes stats_lock, then queue_lock to count
 * itself done and signal `progress`: each signal announces, under
 * queue_lock, that the worker is past what it did so far.  After two
 * hundred jobs every acquisition and signal is a repeat of one made before
 * an announcement (fastpath.h's memo entries set aside and taken back),
 * and the worker's noted needs have wrapped its list several times.  With
 * LOCK_AFTER the worker takes stats_lock once more on its way out.  Main
 * waits for the last job's signal and joins holding stats_lock.
 */
#include "progs.h"

#include <unistd.h>

#define JOBS 200

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t progress = PTHREAD_COND_INITIALIZER;
static int jobs_done, stats;

static void *worker(void *arg)
{
    for (int i = 0; i < JOBS; i++) {
        OK(pthread_mutex_lock(&stats_lock));
        stats++;
        OK(pthread_mutex_unlock(&stats_lock));
        OK(pthread_mutex_lock(&queue_lock));
        jobs_done++;
        OK(pthread_cond_signal(&progress));
        OK(pthread_mutex_unlock(&queue_lock));
    }
#ifdef LOCK_AFTER
    OK(pthread_mutex_lock(&stats_lock)); /* after the last announcement */
    stats++;
    OK(pthread_mutex_unlock(&stats_lock));
#endif
    usleep(100 * 1000); /* still running when joined */
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&queue_lock));
    pthread_t t = spawn_thread(worker, NULL);
    while (jobs_done < JOBS)
        OK(pthread_cond_wait(&progress, &queue_lock));
    OK(pthread_mutex_unlock(&queue_lock));
    usleep(30 * 1000); /* the worker is past its last job by now */
    OK(pthread_mutex_lock(&stats_lock));
    join_thread(t);
    OK(pthread_mutex_unlock(&stats_lock));
    printf("stats %d\n", stats);
    return 0;
}
