/*
 * barrier_holding_after_dead.c - as barrier_holding.c, but the participant
 * first works with eight short-lived mutexes (each created, locked and
 * destroyed) before it takes table_lock on its way to the barrier.  The
 * locks a thread took since its last barrier pass are kept in a small
 * list; locks destroyed since must leave room for table_lock, or the
 * wait-for cycle is missed.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#include "progs.h"

#include <semaphore.h>
#include <stdlib.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t arrived;
static sem_t loaded;
static int rows;

static void scratch_work(void)
{
    for (int i = 0; i < 8; i++) {
        pthread_mutex_t *m = malloc(sizeof(*m));
        CHECK(m != NULL);
        OK(pthread_mutex_init(m, NULL));
        OK(pthread_mutex_lock(m));
        rows += i;
        OK(pthread_mutex_unlock(m));
        OK(pthread_mutex_destroy(m));
        free(m);
    }
}

static void *loader(void *arg)
{
    scratch_work();
    OK(pthread_mutex_lock(&table_lock));
    rows++;
    OK(pthread_mutex_unlock(&table_lock));
    CHECK(sem_post(&loaded) == 0);
    pthread_barrier_wait(&arrived);
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&arrived, NULL, 2));
    CHECK(sem_init(&loaded, 0, 0) == 0);
    pthread_t t = spawn_thread(loader, NULL);
    CHECK(sem_wait(&loaded) == 0); /* the loader is past its lock: this run ends */
    OK(pthread_mutex_lock(&table_lock));
    pthread_barrier_wait(&arrived);
    OK(pthread_mutex_unlock(&table_lock));
    join_thread(t);
    CHECK(rows == 29);
    return 0;
}
