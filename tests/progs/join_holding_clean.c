/*
 * join_holding_clean.c - join_holding.c's twin: main joins the worker
 * holding state_lock, but the worker never takes state_lock (it uses its
 * own stats_lock), so its end needs nothing main holds: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t worker_done;
static int stats;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&stats_lock));
    stats++;
    OK(pthread_mutex_unlock(&stats_lock));
    pthread_barrier_wait(&worker_done);
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&worker_done, NULL, 2));
    pthread_t t = spawn_thread(worker, NULL);
    pthread_barrier_wait(&worker_done);
    OK(pthread_mutex_lock(&state_lock));
    join_thread(t);
    OK(pthread_mutex_unlock(&state_lock));
    CHECK(stats == 1);
    return 0;
}
