/*
 * cond_wait_clean.c - a producer and a consumer sharing a counter under
 * lock_m, with pthread_cond_wait / pthread_cond_signal on `ready`.
 *
 * lock_m is the only lock: pthread_cond_wait releases it and takes it
 * back, which must be modelled as a release and a fresh acquisition with
 * nothing else held - no edge, no self-deadlock (the thread does not hold
 * lock_m while it re-acquires it), no unlock-not-held for the unlock that
 * follows the wait.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#define ITEMS 1000

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t space = PTHREAD_COND_INITIALIZER;
static int queued;

static void *producer(void *arg)
{
    for (int i = 0; i < ITEMS; i++) {
        OK(pthread_mutex_lock(&lock_m));
        while (queued >= 4)
            OK(pthread_cond_wait(&space, &lock_m));
        queued++;
        OK(pthread_cond_signal(&ready));
        OK(pthread_mutex_unlock(&lock_m));
    }
    return arg;
}

static void *consumer(void *arg)
{
    for (int i = 0; i < ITEMS; i++) {
        OK(pthread_mutex_lock(&lock_m));
        while (queued == 0)
            OK(pthread_cond_wait(&ready, &lock_m));
        queued--;
        OK(pthread_cond_signal(&space));
        OK(pthread_mutex_unlock(&lock_m));
    }
    return arg;
}

int main(void)
{
    pthread_t c = spawn_thread(consumer, NULL);
    pthread_t p = spawn_thread(producer, NULL);
    join_thread(p);
    join_thread(c);
    CHECK(queued == 0);
    return 0;
}
