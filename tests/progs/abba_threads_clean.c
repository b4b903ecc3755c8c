/*
 * abba_threads_clean.c - clean twin of abba_threads.c: both threads take
 * lock_a before lock_b.
 *
 * Every thread uses the same order, so the graph has the single edge
 * lock_a -> lock_b and no cycle: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

int main(void)
{
    run_thread(thread_ab, NULL);
    run_thread(thread_ab, NULL);
    return 0;
}
