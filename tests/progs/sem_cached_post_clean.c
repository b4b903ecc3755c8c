/*
 * sem_cached_post_clean.c - a counting semaphore (two tokens) posted by the
 * thread that waited on it, its post validated from the cache: the main
 * thread does sem_wait(sem_s); lock(lock_l); unlock(lock_l); sem_post(sem_s)
 * many times, then once sem_wait(sem_s); sem_post(sem_s) with nothing in
 * between.  Later thread_b takes lock_l and waits on sem_s holding it.
 *
 * A post after the poster's own wait counts the locks taken since as
 * needed to reach it, and a post is needed-by-every-wake-up evidence: the
 * last post shows that sem_s can be posted without lock_l, so lock_l ->
 * sem_s (thread_b) closes no cycle.  Both kinds of post have the same held
 * chain at the post; only the locks taken since the wait differ.  A cache
 * that keyed such a post by the held chain alone would skip the last
 * post's check, keep sem_s -> lock_l, and report a false wait-for cycle.
 * (With one token sem_s is a lock, and the order is a real inversion:
 * sem_binary_plain_post_cycle.c.)
 *
 * EXPECT: none
 */
#include "progs.h"

#include <semaphore.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem_s;
static int counter;

static void *thread_b(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    CHECK(sem_wait(&sem_s) == 0); /* lock_l -> sem_s: no cycle */
    counter++;
    CHECK(sem_post(&sem_s) == 0);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    CHECK(sem_init(&sem_s, 0, 2) == 0);
    for (int i = 0; i < 1000; i++) { /* the cached sequence */
        CHECK(sem_wait(&sem_s) == 0);
        OK(pthread_mutex_lock(&lock_l));
        counter++;
        OK(pthread_mutex_unlock(&lock_l));
        CHECK(sem_post(&sem_s) == 0);
    }
    CHECK(sem_wait(&sem_s) == 0);
    CHECK(sem_post(&sem_s) == 0); /* posted without lock_l */
    run_thread(thread_b, NULL);
    CHECK(counter == 1001);
    CHECK(sem_destroy(&sem_s) == 0);
    return 0;
}
