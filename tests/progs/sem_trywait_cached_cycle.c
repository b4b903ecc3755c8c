/*
 * sem_trywait_cached_cycle.c - a semaphore initialised to 1 used as a lock
 * taken by sem_trywait, as Python takes a threading.Lock: the main thread
 * tries and posts it a thousand times with nothing in between (the tries
 * after the first from the fast path), then once more takes lock_l while
 * it holds the token (sem_s -> lock_l).  Later thread_b takes lock_l and
 * waits on sem_s holding it (lock_l -> sem_s): the ABBA of sem_as_lock.c.
 *
 * The token of a fast try must be held like a slow one's: else lock_l
 * would depend on nothing and the post would look like another thread's.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;

static void *thread_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_wait(&sem_s) == 0); /* lock_l -> sem_s: the cycle */
    CHECK(sem_post(&sem_s) == 0);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 1) == 0);
    for (int i = 0; i < 1000; i++) {
        CHECK(sem_trywait(&sem_s) == 0);
        CHECK(sem_post(&sem_s) == 0);
    }
    CHECK(sem_trywait(&sem_s) == 0);
    OK(pthread_mutex_lock(&lock_l)); /* sem_s -> lock_l */
    OK(pthread_mutex_unlock(&lock_l));
    CHECK(sem_post(&sem_s) == 0);
    run_thread(thread_b, NULL);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
