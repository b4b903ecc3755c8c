/*
 * sem_self_post_clean.c - one thread posts sem_s holding lock_l, then
 * waits on sem_s still holding lock_l; no other thread uses either.
 *
 * The wait takes the token the thread posted itself and never blocks.  A
 * wait that does block can only be ended by another thread's post (the
 * waiter cannot post while it waits), so a thread's own posts say nothing
 * about who ends its wait: lock_l -> sem_s with sem_s -> lock_l recorded
 * only by this thread's post is no wait-for cycle.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 0) == 0);
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_post(&sem_s) == 0); /* sem_s -> lock_l, by this thread */
    CHECK(sem_wait(&sem_s) == 0); /* lock_l -> sem_s */
    OK(pthread_mutex_unlock(&lock_l));
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
