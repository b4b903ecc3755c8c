/*
 * sem_cached_rounds.h - the program of sem_cached_then_cycle.c,
 * sem_counting_cached_cycle.c, sem_binary_plain_post_cycle.c and
 * sem_cached_post_clean.c: a semaphore of SEM_TOKENS tokens that main
 * takes, then takes lock_l under it, and posts, a thousand times (with
 * SEM_PLAIN_LAST_ROUND, then once more with nothing in between); then
 * thread_b waits on it holding lock_l.
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;
static int counter;

static void *thread_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_wait(&sem_s) == 0); /* lock_l -> sem_s */
    counter++;
    CHECK(sem_post(&sem_s) == 0);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, SEM_TOKENS) == 0);
    for (int i = 0; i < 1000; i++) {
        CHECK(sem_wait(&sem_s) == 0);
        OK(pthread_mutex_lock(&lock_l));
        counter++;
        OK(pthread_mutex_unlock(&lock_l));
        CHECK(sem_post(&sem_s) == 0); /* needed lock_l: sem_s -> lock_l */
    }
#ifdef SEM_PLAIN_LAST_ROUND
    CHECK(sem_wait(&sem_s) == 0);
    CHECK(sem_post(&sem_s) == 0); /* posted without lock_l */
#endif
    run_thread(thread_b, NULL);
    CHECK(counter == 1001);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
