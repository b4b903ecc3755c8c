/*
 * sem_cached_then_cycle.c - a binary semaphore used as a lock, validated
 * once and then taken from the caches: the main thread does
 * sem_wait(sem_s); lock(lock_l); unlock(lock_l); sem_post(sem_s) a
 * thousand times (sem_s -> lock_l: its post needs lock_l).  Then thread_b
 * takes lock_l and waits on sem_s holding it: lock_l -> sem_s closes the
 * cycle, the ABBA of sem_as_lock.c.
 *
 * The thousand cached waits and posts must leave the evidence in place and
 * the new waiter (a thread new to sem_s, holding a lock) must miss every
 * cache and be searched.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;
static int counter;

static void *thread_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_wait(&sem_s) == 0); /* lock_l -> sem_s: the cycle */
    counter++;
    CHECK(sem_post(&sem_s) == 0);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 1) == 0);
    for (int i = 0; i < 1000; i++) {
        CHECK(sem_wait(&sem_s) == 0);
        OK(pthread_mutex_lock(&lock_l));
        counter++;
        OK(pthread_mutex_unlock(&lock_l));
        CHECK(sem_post(&sem_s) == 0); /* needed lock_l: sem_s -> lock_l */
    }
    run_thread(thread_b, NULL);
    CHECK(counter == 1001);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
