/*
 * timeout_cond_broke_cycle.c - a timeout that broke a deadlock.  main
 * holds table_lock and waits (200 ms at most) for `flushed`, which only
 * the flusher ever signals; the flusher must take table_lock before it can
 * signal again, and blocks on it.  The timed wait expires, main gives up
 * and unlocks, the flusher goes on: the program survives thanks to the
 * timeout.  No lock order predicts it (the flusher's earlier signal held
 * no table_lock), but when main's wait expires the flusher is blocked on a
 * lock that main holds: timeout-deadlock, naming the condvar and the lock.
 *
 * EXPECT: timeout-deadlock flushed table_lock
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cond_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flushed = PTHREAD_COND_INITIALIZER;
static sem_t main_holds_table;
static int flushes;

static void *flusher(void *arg)
{
    OK(pthread_mutex_lock(&cond_mutex));
    flushes++;
    OK(pthread_cond_signal(&flushed)); /* the only waker of `flushed` */
    OK(pthread_mutex_unlock(&cond_mutex));
    CHECK(sem_wait(&main_holds_table) == 0);
    OK(pthread_mutex_lock(&table_lock)); /* blocked until main's wait expires */
    OK(pthread_mutex_lock(&cond_mutex));
    flushes++;
    OK(pthread_cond_signal(&flushed));
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_unlock(&table_lock));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&main_holds_table, 0, 0) == 0);
    OK(pthread_mutex_lock(&cond_mutex));
    pthread_t t = spawn_thread(flusher, NULL);
    while (flushes < 1)
        OK(pthread_cond_wait(&flushed, &cond_mutex));
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_lock(&table_lock));
    CHECK(sem_post(&main_holds_table) == 0);
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL); /* the flusher is blocked on table_lock now */
    OK(pthread_mutex_lock(&cond_mutex));
    struct timespec until = in_ms(CLOCK_REALTIME, 200);
    int r = 0;
    while (flushes < 2 && r == 0)
        r = pthread_cond_timedwait(&flushed, &cond_mutex, &until);
    CHECK_RC(r, ETIMEDOUT);
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_unlock(&table_lock));
    join_thread(t);
    CHECK(flushes == 2);
    return 0;
}
