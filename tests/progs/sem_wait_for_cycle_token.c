/*
 * sem_wait_for_cycle_token.c - sem_wait_for_cycle.c with lock_l a binary
 * semaphore (`token`, initialised to 1) that both threads take by
 * sem_wait: a semaphore used as a lock.  Its token is held as a trylock
 * (the wait before it was checked as a wait), but its taker did wait for
 * it, so the post of sem_s made holding it needs it: token -> sem_s ->
 * token, as with a mutex.  (sem_wait_for_cycle_tried_clean.c: a lock taken
 * by trylock is not needed.)
 *
 * EXPECT: wait-for-cycle token sem_s
 */
#include "progs.h"

#include <semaphore.h>

static sem_t token, sem_s;

static void *waiter(void *arg)
{
    CHECK(sem_wait(&token) == 0);
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK(sem_timedwait(&sem_s, &deadline) == -1 && errno == ETIMEDOUT);
    CHECK(sem_post(&token) == 0);
    return arg;
}

static void *poster(void *arg)
{
    CHECK(sem_wait(&token) == 0);
    CHECK(sem_post(&sem_s) == 0); /* sem_s -> token */
    CHECK(sem_post(&token) == 0);
    return arg;
}

int main(void)
{
    CHECK(sem_init(&token, 0, 1) == 0);
    CHECK(sem_init(&sem_s, 0, 0) == 0);
    run_thread(waiter, NULL);
    run_thread(poster, NULL);
    CHECK(sem_destroy(&sem_s) == 0);
    CHECK(sem_destroy(&token) == 0);
    return 0;
}
