/*
 * sem_binary_plain_post_cycle.c - a binary semaphore used as a lock: the
 * main thread does sem_wait(sem_s); lock(lock_l); unlock(lock_l);
 * sem_post(sem_s) many times, then once sem_wait(sem_s); sem_post(sem_s)
 * with nothing in between.  Later thread_b takes lock_l and waits on sem_s
 * holding it.
 *
 * While main holds sem_s's only token it takes lock_l (sem_s -> lock_l);
 * thread_b holds lock_l and waits for the token (lock_l -> sem_s).  Had
 * thread_b run during main's loop, each would wait for the other: the ABBA
 * of two mutexes, and a later round of main that takes no lock_l does not
 * make the earlier rounds safe.  The post of a token its taker holds is a
 * release, not a wake-up whose needs shrink with each post.
 *
 * EXPECT: wait-for-cycle sem_s lock_l
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
    for (int i = 0; i < 1000; i++) { /* the cached sequence */
        CHECK(sem_wait(&sem_s) == 0);
        OK(pthread_mutex_lock(&lock_l));
        counter++;
        OK(pthread_mutex_unlock(&lock_l));
        CHECK(sem_post(&sem_s) == 0);
    }
    CHECK(sem_wait(&sem_s) == 0);
    CHECK(sem_post(&sem_s) == 0); /* posted without lock_l */
    run_thread(thread_b, NULL);
    CHECK(counter == 1001);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
