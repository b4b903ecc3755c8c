/*
 * sem_lock_then_signal_clean.c - a semaphore initialised to 1 used as a
 * lock by the main thread for a thousand rounds (wait, post: the waits
 * after the first from the fast path), then posted by a worker that never
 * took it: from then on it is a signal.  main waits once more, with the
 * same (empty) held stack as in its rounds, then takes lock_m; a second
 * worker waits on sem_s holding lock_m.
 *
 * main's last wait, from the fast path (checked before, with nothing
 * held), takes a token another thread posted: main holds nothing by it, so
 * lock_m does not depend on sem_s and the second worker's lock_m -> sem_s
 * closes no cycle.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;

static void *poster(void *arg)
{
    CHECK(sem_post(&sem_s) == 0); /* not a taker's post: sem_s is a signal now */
    return arg;
}

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    CHECK(sem_wait(&sem_s) == 0); /* lock_m -> sem_s */
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 1) == 0);
    for (int i = 0; i < 1000; i++) {
        CHECK(sem_wait(&sem_s) == 0);
        CHECK(sem_post(&sem_s) == 0);
    }
    run_thread(poster, NULL);
    CHECK(sem_wait(&sem_s) == 0); /* a token of a signal: nothing held */
    OK(pthread_mutex_lock(&lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    run_thread(waiter, NULL);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
