/*
 * exit_cancel_cleanup_clean.c - clean twin of exit_holding_cancel.c: the
 * thread pushes a cleanup handler that unlocks lock_m.
 *
 * Cancellation runs the handler, which releases lock_m in the dying
 * thread before it ends: it exits holding nothing, and the unlock is by
 * the owner.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <unistd.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t locked;

static void unlock_cleanup(void *m)
{
    OK(pthread_mutex_unlock(m));
}

static void *victim(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    pthread_cleanup_push(unlock_cleanup, &lock_m);
    pthread_barrier_wait(&locked);
    for (;;)
        pause(); /* cancelled here */
    pthread_cleanup_pop(1);
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&locked, NULL, 2));
    pthread_t t = spawn_thread(victim, NULL);
    pthread_barrier_wait(&locked);
    OK(pthread_cancel(t));
    CHECK(join_thread(t) == PTHREAD_CANCELED);
    OK(pthread_mutex_trylock(&lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    return 0;
}
