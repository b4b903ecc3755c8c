/*
 * recordless_barrier_holding.c - barrier_holding.c with a per-request
 * lock: the loader takes it holding nothing (no record) on its way to the
 * barrier; main waits there holding it.  The same wait-for cycle.
 *
 * EXPECT: wait-for-cycle request_new:*#2 arrived
 */
#include "recordless.h"

#include <semaphore.h>

static pthread_barrier_t arrived;
static sem_t loaded;

static void *loader(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    r->state++;
    request_unlock(r);
    CHECK(sem_post(&loaded) == 0);
    pthread_barrier_wait(&arrived);
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    OK(pthread_barrier_init(&arrived, NULL, 2));
    CHECK(sem_init(&loaded, 0, 0) == 0);
    pthread_t t = spawn_thread(loader, r);
    CHECK(sem_wait(&loaded) == 0); /* the loader is past its lock: this run ends */
    request_lock(r);
    pthread_barrier_wait(&arrived); /* holding r->lock */
    request_unlock(r);
    join_thread(t);
    CHECK(r->state == 1);
    request_free(r);
    return 0;
}
