/*
 * sem_wait_for_cycle_tried_clean.c - sem_wait_for_cycle.c with the poster
 * taking lock_l by trylock.  A waker that cannot get the lock does not
 * wait for it (no order edge goes into a tried lock either), so the post
 * does not need lock_l and the waiter holding it closes no cycle.
 * No report.
 *
 * EXPECT: none
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
    OK(pthread_mutex_trylock(&lock_l));
    CHECK(sem_post(&sem_s) == 0);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 0) == 0);
    run_thread(waiter, NULL);
    run_thread(poster, NULL);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
