/*
 * sem_thread_lifetime_token_clean.c - Python's thread bookkeeping, as
 * queue.Queue workers joined by the main thread exercise it (a
 * wait-for-cycle error on some runs of a plain put/get/join program).
 *
 * Every Python thread takes a semaphore of its own, initialised to 1, by
 * sem_trywait when it starts and posts it when it ends; join() waits on
 * it.  The main thread holds its own (`main_token`) from start to exit.
 * A worker, holding its token, waits on a waiter semaphore that the main
 * thread posts (notify), then ends; the main thread joins it by waiting on
 * its token.
 *
 * The main thread holds main_token at every post of the waiter, but it
 * took it by trylock, long before: a waker never waits for a lock it
 * tries, so the post does not need it, and the join closes no cycle
 * main_token -> worker_token -> waiter -> main_token.  No report.
 * (sem_wait_for_cycle.c is the same wait with a blocking lock: reported.)
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static sem_t main_token, worker_token, waiter;

static void *worker(void *arg)
{
    CHECK(sem_trywait(&worker_token) == 0); /* its whole life */
    CHECK(sem_wait(&waiter) == 0);          /* worker_token -> waiter */
    CHECK(sem_post(&worker_token) == 0);    /* its end */
    return arg;
}

int main(void)
{
    CHECK(sem_init(&main_token, 0, 1) == 0);
    CHECK(sem_trywait(&main_token) == 0);
    CHECK(sem_init(&worker_token, 0, 1) == 0);
    CHECK(sem_init(&waiter, 0, 0) == 0);
    pthread_t t = spawn_thread(worker, NULL);
    CHECK(sem_post(&waiter) == 0); /* notify, holding main_token */
    join_thread(t);
    CHECK(sem_wait(&worker_token) == 0); /* join(): main_token -> worker_token */
    CHECK(sem_post(&worker_token) == 0);
    CHECK(sem_post(&main_token) == 0);
    return 0;
}
