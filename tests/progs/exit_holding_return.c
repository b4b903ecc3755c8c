/*
 * exit_holding_return.c - a thread returns from its start routine while
 * holding lock_a and lock_b.
 *
 * The locks stay locked forever (a normal mutex has no owner death
 * handling): anyone who takes them later hangs.  One exit-holding report
 * listing every lock still held.  main never touches them again.
 *
 * EXPECT: exit-holding lock_a lock_b
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *leaker(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    return arg; /* bug: returns holding both */
}

int main(void)
{
    run_thread(leaker, NULL);
    CHECK_RC(pthread_mutex_trylock(&lock_a), EBUSY);
    return 0;
}
