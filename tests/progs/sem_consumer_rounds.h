/*
 * sem_consumer_rounds.h - the program of timeout_sem_broke_cycle.c and
 * kill_sem_wait.c up to their last wait: main holds table_lock while it
 * waits for `done`, which only the worker posts, ROUNDS times (the worker
 * posting holding nothing; main updating eight counters under stats_lock
 * after each wait, as a consumer does, so that its next waits come from
 * the fast path).  Then main takes table_lock once more and lets the
 * worker go on: the worker must take table_lock before its next post.
 */
#include "progs.h"

#include <semaphore.h>

#define ROUNDS 100

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t done, main_holds_table;
static long counters[8];

static void *worker(void *arg)
{
    for (int i = 0; i < ROUNDS; i++)
        CHECK(sem_post(&done) == 0);
    CHECK(sem_wait(&main_holds_table) == 0);
    OK(pthread_mutex_lock(&table_lock)); /* blocked while main holds it */
    CHECK(sem_post(&done) == 0);
    OK(pthread_mutex_unlock(&table_lock));
    return arg;
}

/* Starts the worker; returns with table_lock held and the worker let go. */
static pthread_t consume_rounds(void)
{
    CHECK(sem_init(&done, 0, 0) == 0);
    CHECK(sem_init(&main_holds_table, 0, 0) == 0);
    pthread_t t = spawn_thread(worker, NULL);
    for (int i = 0; i < ROUNDS; i++) {
        OK(pthread_mutex_lock(&table_lock));
        struct timespec until = in_ms(CLOCK_REALTIME, 5000);
        CHECK(sem_timedwait(&done, &until) == 0);
        for (int c = 0; c < 8; c++) {
            OK(pthread_mutex_lock(&stats_lock));
            counters[c]++;
            OK(pthread_mutex_unlock(&stats_lock));
        }
        OK(pthread_mutex_unlock(&table_lock));
    }
    CHECK(counters[7] == ROUNDS);
    OK(pthread_mutex_lock(&table_lock));
    CHECK(sem_post(&main_holds_table) == 0);
    return t;
}
