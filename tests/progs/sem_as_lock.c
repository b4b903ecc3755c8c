/*
 * sem_as_lock.c - a binary semaphore used as a lock: thread_a does
 * sem_wait(sem_s); lock(lock_l); unlock(lock_l); sem_post(sem_s).  Later,
 * thread_b takes lock_l and then does sem_wait(sem_s); sem_post(sem_s)
 * while still holding lock_l.
 *
 * Between its wait and its post, thread_a owns the semaphore's only token,
 * and its post depends on getting lock_l first: sem_s -> lock_l, although
 * lock_l is no longer held at the post itself (a post by the thread that
 * waited counts the locks taken in between).  thread_b waits on sem_s
 * holding lock_l: lock_l -> sem_s, a cycle.  Run at the same time,
 * thread_a holds the token and blocks on lock_l, thread_b holds lock_l and
 * blocks in sem_wait: the classic ABBA, with a semaphore as one of the
 * locks.  thread_b's own post (lock_l held) keeps sem_s -> lock_l.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;
static int counter;

static void *thread_a(void *arg)
{
    CHECK(sem_wait(&sem_s) == 0);
    OK(pthread_mutex_lock(&lock_l));
    counter++;
    OK(pthread_mutex_unlock(&lock_l));
    CHECK(sem_post(&sem_s) == 0); /* needed lock_l: sem_s -> lock_l */
    return arg;
}

static void *thread_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_wait(&sem_s) == 0); /* lock_l -> sem_s: the cycle */
    counter++;
    CHECK(sem_post(&sem_s) == 0);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 1) == 0);
    run_thread(thread_a, NULL);
    run_thread(thread_b, NULL);
    CHECK(counter == 2);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
