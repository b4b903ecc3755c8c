/*
 * barrier_rounds.h - the program of barrier_rounds_mutex.c and
 * barrier_rounds_rwlock.c: a loader and main meet at a barrier ROUNDS
 * times; in every round the loader takes table_lock (TAKE: a mutex or an
 * rwlock's write lock) on its way there.  Each pass restarts what the
 * loader needed to arrive and sets its memo entries aside, so every
 * acquisition after the first comes back through the take-back (the
 * wrappers' own, fastpath.h).  In the last round main waits at the barrier
 * holding table_lock.  The loader got there first, so this run ends; had
 * main come first, the loader would block on table_lock and never arrive.
 */
#include "progs.h"

#include <semaphore.h>

#define ROUNDS 20

static sem_t loaded;
static pthread_barrier_t arrived;
static int rows;

static void *loader(void *arg)
{
    for (int i = 0; i < ROUNDS; i++) {
        OK(TAKE(&table_lock));
        rows++;
        OK(RELEASE(&table_lock));
        if (i == ROUNDS - 1)
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
    CHECK(rows == ROUNDS);
    return 0;
}
