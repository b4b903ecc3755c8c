/*
 * barrier_holding.h - the program of barrier_holding*.c and
 * barrier_rounds_*.c: main and a loader meet at a barrier ROUNDS times (1
 * unless the including file says).  In every round the loader takes
 * table_lock (TAKE: a mutex unless the including file defines it and the
 * lock) on its way there, in the last one after loader_work(&rows) (the
 * including file's).  In the last round main waits at the barrier holding
 * table_lock.  The loader gets there first, so the run ends; main checks
 * rows == EXPECTED_ROWS.
 */
#include "progs.h"

#include <semaphore.h>

#ifndef ROUNDS
#define ROUNDS 1
#endif
#ifndef TAKE
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
#define TAKE pthread_mutex_lock
#define RELEASE pthread_mutex_unlock
#endif

static pthread_barrier_t arrived;
static sem_t loaded;
static int rows;

static void loader_work(int *rows);

static void *loader(void *arg)
{
    for (int i = 0; i < ROUNDS; i++) {
        int last = i == ROUNDS - 1;
        if (last)
            loader_work(&rows);
        OK(TAKE(&table_lock));
        rows++;
        OK(RELEASE(&table_lock));
        if (last)
            CHECK(sem_post(&loaded) == 0);
        pthread_barrier_wait(&arrived);
    }
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&arrived, NULL, 2));
    CHECK(sem_init(&loaded, 0, 0) == 0);
    pthread_t t = spawn_thread(loader, NULL);
    for (int i = 0; i < ROUNDS - 1; i++)
        pthread_barrier_wait(&arrived);
    CHECK(sem_wait(&loaded) == 0); /* the loader is past its lock: this run ends */
    OK(TAKE(&table_lock));
    pthread_barrier_wait(&arrived); /* holding table_lock */
    OK(RELEASE(&table_lock));
    join_thread(t);
    CHECK(rows == EXPECTED_ROWS);
    return 0;
}
