/*
 * join_announced_loop.h - the program of join_announced_loop_then_lock.c
 * and join_announced_loop_clean.c: a pool worker that notifies under a
 * lock at every job.  Each job takes stats_lock, then queue_lock to count
 * itself done and signal `progress`: each signal announces, under
 * queue_lock, that the worker is past what it did so far.  After two
 * hundred jobs every acquisition and signal is a repeat of one made before
 * an announcement (fastpath.h's memo entries set aside and taken back),
 * and the worker's noted needs have wrapped its list several times.  With
 * LOCK_AFTER the worker takes stats_lock once more on its way out (with
 * STATS_RWLOCK an rwlock, written).  Main
 * waits for the last job's signal and joins holding stats_lock.
 */
#include "progs.h"

#include <unistd.h>

#define JOBS 200

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
#ifdef STATS_RWLOCK /* an rwlock's write lock: an acquisition that may fail */
static pthread_rwlock_t stats_lock = PTHREAD_RWLOCK_INITIALIZER;
#define STATS_TAKE pthread_rwlock_wrlock
#define STATS_RELEASE pthread_rwlock_unlock
#else
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
#define STATS_TAKE pthread_mutex_lock
#define STATS_RELEASE pthread_mutex_unlock
#endif
static pthread_cond_t progress = PTHREAD_COND_INITIALIZER;
static int jobs_done, stats;

static void *worker(void *arg)
{
    for (int i = 0; i < JOBS; i++) {
        OK(STATS_TAKE(&stats_lock));
        stats++;
        OK(STATS_RELEASE(&stats_lock));
        OK(pthread_mutex_lock(&queue_lock));
        jobs_done++;
        OK(pthread_cond_signal(&progress));
        OK(pthread_mutex_unlock(&queue_lock));
    }
#ifdef LOCK_AFTER
    OK(STATS_TAKE(&stats_lock)); /* after the last announcement */
    stats++;
    OK(STATS_RELEASE(&stats_lock));
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
    OK(STATS_TAKE(&stats_lock));
    join_thread(t);
    OK(STATS_RELEASE(&stats_lock));
    printf("stats %d\n", stats);
    return 0;
}
