/*
 * gate_rwlock_read.c - gate_mutex_clean.c with the outer lock an rwlock
 * taken for *reading* on both sides.
 *
 * Readers do not exclude each other: both nestings can run at once under
 * the shared gate, each holding one of lock_a/lock_b and waiting for the
 * other.  A read-held lock is no gate, so the inversion is reported.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

static pthread_rwlock_t gate = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *thread_ab(void *arg)
{
    OK(pthread_rwlock_rdlock(&gate));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_rwlock_unlock(&gate));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_rwlock_rdlock(&gate));
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
