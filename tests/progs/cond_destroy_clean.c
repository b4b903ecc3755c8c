/*
 * cond_destroy_clean.c - the clean twin of cond_destroy_waiters.c: main
 * destroys the condition variable after the waiter, signalled, has left
 * its wait and been joined.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready;
static int go;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    while (!go)
        OK(pthread_cond_wait(&ready, &lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

int main(void)
{
    OK(pthread_cond_init(&ready, NULL));
    pthread_t t = spawn_thread(waiter, NULL);
    OK(pthread_mutex_lock(&lock_m));
    go = 1;
    OK(pthread_cond_signal(&ready));
    OK(pthread_mutex_unlock(&lock_m));
    join_thread(t);
    OK(pthread_cond_destroy(&ready));
    return 0;
}
