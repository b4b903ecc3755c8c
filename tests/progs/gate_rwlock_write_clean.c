/*
 * gate_rwlock_write_clean.c - gate_rwlock_read.c with the rwlock gate
 * taken for *writing* on both sides.
 *
 * A write hold is exclusive, like a mutex: the two nestings are
 * serialised by the gate and cannot deadlock.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_rwlock_t gate = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_ab(void *arg)
{
    OK(pthread_rwlock_wrlock(&gate));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_rwlock_unlock(&gate));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_rwlock_wrlock(&gate));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_rwlock_unlock(&gate));
    return arg;
}

int main(void)
{
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    return 0;
}
