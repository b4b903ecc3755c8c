/*
 * exit_holding_cancel.c - a thread holding lock_m is cancelled while
 * blocked in pause() (a cancellation point), with no cleanup handler.
 *
 * Cancellation ends the thread with lock_m still locked: exit-holding
 * (docs/reports.md: "return, pthread_exit, cancel").  A barrier makes sure
 * lock_m is held before main cancels.
 *
 * EXPECT: exit-holding lock_m
 */
#include "progs.h"

#include <unistd.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t locked;

static void *victim(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    pthread_barrier_wait(&locked);
    for (;;)
        pause(); /* cancelled here */
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&locked, NULL, 2));
    pthread_t t = spawn_thread(victim, NULL);
    pthread_barrier_wait(&locked);
    OK(pthread_cancel(t));
    CHECK(join_thread(t) == PTHREAD_CANCELED);
    CHECK_RC(pthread_mutex_trylock(&lock_m), EBUSY);
    return 0;
}
