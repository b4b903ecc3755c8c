/*
 * sem_wait_for_cycle.h - the program of sem_wait_for_cycle*.c: a waiter
 * holds lock_l while its sem_timedwait on sem_s times out; later a poster
 * takes lock_l with POSTER_TAKE (a lock or a trylock) and posts sem_s.
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK(sem_timedwait(&sem_s, &deadline) == -1 && errno == ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

static void *poster(void *arg)
{
    OK(POSTER_TAKE(&lock_l));
    CHECK(sem_post(&sem_s) == 0); /* sem_s -> lock_l, if the taker waits for it */
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 0) == 0);
    run_thread(waiter, NULL);
    run_thread(poster, NULL);
    int value;
    CHECK(sem_getvalue(&sem_s, &value) == 0 && value == 1);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
