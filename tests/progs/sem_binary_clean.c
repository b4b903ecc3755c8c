/*
 * sem_binary_clean.c - the clean twin of sem_binary_abba.c: both threads
 * take the binary semaphores sem_a and sem_b in the same order, so no
 * cycle.
 *
 * Then a semaphore initialised to 1 that is not a lock: `slot` is taken
 * by taker() and given back by main (a hand-off).  The post by a thread
 * that did not take the token makes it a signal: taker() ending with the
 * token taken is no exit-holding, and the later waits of main on `slot`
 * while holding lock_m, against taker's lock_m after taking it, are no
 * inversion (nobody holds a signal's token).  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static sem_t sem_a, sem_b, slot;
static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *thread_ab(void *arg)
{
    CHECK(sem_wait(&sem_a) == 0);
    CHECK(sem_wait(&sem_b) == 0);
    counter++;
    CHECK(sem_post(&sem_b) == 0);
    CHECK(sem_post(&sem_a) == 0);
    return arg;
}

static void *taker(void *arg)
{
    CHECK(sem_wait(&slot) == 0); /* main gives it back */
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_a, 0, 1) == 0);
    CHECK(sem_init(&sem_b, 0, 1) == 0);
    CHECK(sem_init(&slot, 0, 1) == 0);
    run_thread(thread_ab, NULL);
    run_thread(thread_ab, NULL);
    CHECK(counter == 2);
    run_thread(taker, NULL);
    CHECK(sem_post(&slot) == 0); /* a hand-off: slot is a signal */
    OK(pthread_mutex_lock(&lock_m));
    CHECK(sem_wait(&slot) == 0);
    OK(pthread_mutex_unlock(&lock_m));
    CHECK(sem_post(&slot) == 0);
    return 0;
}
