/*
 * many_threads_clean.c - eight threads run at the same time, each taking
 * lock_a, lock_b, lock_c in that order 2000 times.
 *
 * One global order, so no cycle and no report, however the threads
 * interleave.  This is the validator's concurrency smoke test: its graph
 * and per-thread state are updated from many threads at once, and the
 * program must neither crash nor report anything.
 *
 * EXPECT: none
 */
#include "progs.h"

#define THREADS 8
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *worker(void *arg)
{
    for (int i = 0; i < 2000; i++) {
        OK(pthread_mutex_lock(&lock_a));
        OK(pthread_mutex_lock(&lock_b));
        OK(pthread_mutex_lock(&lock_c));
        counter++;
        OK(pthread_mutex_unlock(&lock_c));
        OK(pthread_mutex_unlock(&lock_b));
        OK(pthread_mutex_unlock(&lock_a));
    }
    return arg;
}

int main(void)
{
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        t[i] = spawn_thread(worker, NULL);
    for (int i = 0; i < THREADS; i++)
        join_thread(t[i]);
    CHECK(counter == THREADS * 2000);
    return 0;
}
