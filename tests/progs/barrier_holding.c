/*
 * barrier_holding.c - main waits at a barrier holding table_lock; the
 * other participant takes table_lock on its way to the barrier.  Here the
 * participant got there first, so this run ends; had main come first, the
 * participant would block on table_lock and never reach the barrier, and
 * main would wait there forever.  A barrier waited at holding L, where
 * another participant needed L to arrive, is a wait-for cycle.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t arrived;
static sem_t loaded;
static int rows;

static void *loader(void *arg)
{
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
    CHECK(rows == 1);
    return 0;
}
