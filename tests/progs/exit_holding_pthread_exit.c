/*
 * exit_holding_pthread_exit.c - a thread calls pthread_exit() from a
 * nested function while holding lock_m.
 *
 * pthread_exit unwinds the thread without returning to its start routine,
 * so the validator must see thread exit itself, not just the return.  One
 * exit-holding report naming lock_m.
 *
 * EXPECT: exit-holding lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline)) void give_up(void)
{
    pthread_exit(NULL); /* bug: lock_m is still held */
}

static void *quitter(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    give_up();
    return arg;
}

int main(void)
{
    run_thread(quitter, NULL);
    CHECK_RC(pthread_mutex_trylock(&lock_m), EBUSY);
    return 0;
}
