/*
 * barrier_holding.h - the program of barrier_holding*.c: main waits at a
 * barrier holding table_lock; the loader, after loader_work(&rows) (the
 * including file's), takes table_lock on its way to the barrier.  It gets
 * there first, so the run ends; main checks rows == EXPECTED_ROWS.
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t arrived;
static sem_t loaded;
static int rows;

static void loader_work(int *rows);

static void *loader(void *arg)
{
    loader_work(&rows);
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
    CHECK(rows == EXPECTED_ROWS);
    return 0;
}
