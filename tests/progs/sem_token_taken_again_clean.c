/*
 * sem_token_taken_again_clean.c - Python's Condition.wait when the notify
 * comes between its two acquires of the waiter lock: the waiting thread
 * takes the waiter's token (sem_trywait), a notifier posts it, and the
 * second acquire is an uncontended sem_trywait too.  The thread took a
 * token another thread posted: the waiter is a signal and the thread holds
 * nothing, so a mutex it takes afterwards depends on no waiter, and a
 * thread holding that mutex while it waits on the waiter closes no cycle.
 * No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static sem_t waiter;
static pthread_mutex_t mutex_m = PTHREAD_MUTEX_INITIALIZER;

static void *notifier(void *arg)
{
    CHECK(sem_post(&waiter) == 0);
    return arg;
}

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&mutex_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK(sem_timedwait(&waiter, &deadline) == -1 && errno == ETIMEDOUT);
    OK(pthread_mutex_unlock(&mutex_m));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&waiter, 0, 1) == 0);
    CHECK(sem_trywait(&waiter) == 0); /* the first acquire */
    run_thread(notifier, NULL);       /* notify() */
    CHECK(sem_trywait(&waiter) == 0); /* the second: the token is there */
    OK(pthread_mutex_lock(&mutex_m));
    OK(pthread_mutex_unlock(&mutex_m));
    run_thread(holder, NULL);
    CHECK(sem_destroy(&waiter) == 0);
    return 0;
}
