/*
 * sem_as_lock_clean.c - clean twin of sem_as_lock.c: thread_a is the same
 * (sem_wait(sem_s); lock/unlock lock_l; sem_post(sem_s)), but thread_b
 * releases lock_l before it does sem_wait(sem_s); sem_post(sem_s).
 *
 * thread_a's post still records sem_s -> lock_l; thread_b holds nothing
 * while it waits, so no lock_l -> sem_s and no cycle.  (thread_b's own
 * post, holding nothing and having taken nothing since its wait, is a
 * wake-up without lock_l, which drops sem_s -> lock_l altogether.)  Run
 * at the same time the two cannot deadlock: no report.
 *
 * EXPECT: none
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
    CHECK(sem_post(&sem_s) == 0);
    return arg;
}

static void *thread_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    counter++;
    OK(pthread_mutex_unlock(&lock_l)); /* released before the wait */
    CHECK(sem_wait(&sem_s) == 0);
    CHECK(sem_post(&sem_s) == 0);
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
