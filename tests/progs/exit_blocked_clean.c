/*
 * exit_blocked_clean.c - threads blocked when the process exits, none of
 * them past help: no report.
 *  - an idle pool: two workers wait on `work` holding nothing;
 *  - a holder that sleeps: waiter1 is blocked on sleep_lock, held by a
 *    thread in nanosleep (not a wait: it may wake and release);
 *  - a holder woken late: waiter2 is blocked on cond_held_lock, held by a
 *    thread waiting on `late`, which a third thread signals 20 ms after
 *    main has begun to exit (posting `exiting` is the last thing main
 *    does).  At the exit's first look waiter2 seems stuck; 200 ms later it
 *    has moved;
 *  - a leader waiting for work: follower is blocked on leader_lock, held by
 *    a thread waiting on `jobs`, which main signalled before and could
 *    signal again: main is exiting, not blocked, so nothing is certain.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>
#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cond_held_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t late_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t late = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t leader_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t jobs_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jobs = PTHREAD_COND_INITIALIZER;
static int njobs;
static sem_t exiting;
static atomic_int held, woken;

static void *idle_worker(void *arg)
{
    OK(pthread_mutex_lock(&pool_lock));
    for (;;)
        OK(pthread_cond_wait(&work, &pool_lock));
    return arg;
}

static void *sleeper(void *arg)
{
    OK(pthread_mutex_lock(&sleep_lock));
    atomic_fetch_add(&held, 1);
    for (;;) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
    return arg;
}

static void *late_holder(void *arg)
{
    OK(pthread_mutex_lock(&cond_held_lock));
    OK(pthread_mutex_lock(&late_mutex));
    atomic_fetch_add(&held, 1);
    while (!atomic_load(&woken))
        OK(pthread_cond_wait(&late, &late_mutex));
    OK(pthread_mutex_unlock(&late_mutex));
    OK(pthread_mutex_unlock(&cond_held_lock));
    return arg;
}

static void *late_waker(void *arg)
{
    while (sem_wait(&exiting) != 0)
        ;
    struct timespec ts = {0, 20 * 1000 * 1000}; /* the exit's first look sees it */
    nanosleep(&ts, NULL);
    OK(pthread_mutex_lock(&late_mutex));
    atomic_store(&woken, 1);
    OK(pthread_cond_signal(&late));
    OK(pthread_mutex_unlock(&late_mutex));
    return arg;
}

static void *leader(void *arg)
{
    OK(pthread_mutex_lock(&leader_lock));
    OK(pthread_mutex_lock(&jobs_mutex));
    for (;;) {
        while (!njobs)
            OK(pthread_cond_wait(&jobs, &jobs_mutex));
        njobs--;
        atomic_fetch_add(&held, 1);
    }
    return arg;
}

static void *lock_waiter(void *arg)
{
    pthread_mutex_t *m = arg;
    OK(pthread_mutex_lock(m));
    OK(pthread_mutex_unlock(m));
    return NULL;
}

int main(void)
{
    OK(sem_init(&exiting, 0, 0));
    spawn_thread(idle_worker, NULL);
    spawn_thread(idle_worker, NULL);
    spawn_thread(sleeper, NULL);
    spawn_thread(late_holder, NULL);
    spawn_thread(late_waker, NULL);
    spawn_thread(leader, NULL);
    OK(pthread_mutex_lock(&jobs_mutex));
    njobs = 1;
    OK(pthread_cond_signal(&jobs));
    OK(pthread_mutex_unlock(&jobs_mutex));
    while (atomic_load(&held) < 3)
        sched_yield();
    spawn_thread(lock_waiter, &sleep_lock);
    spawn_thread(lock_waiter, &cond_held_lock);
    spawn_thread(lock_waiter, &leader_lock);
    struct timespec ts = {0, 100 * 1000 * 1000}; /* everyone blocks */
    nanosleep(&ts, NULL);
    OK(sem_post(&exiting));
    return 0;
}
