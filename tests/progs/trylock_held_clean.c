/*
 * trylock_held_clean.c - the clean twin of trylock_held.c: trylocks that
 * fail or nest for good reasons.  A trylock of a mutex another thread
 * holds (EBUSY: it is busy, not ours), a trylock of a recursive mutex the
 * thread holds (succeeds, nests), and a tryrdlock of a default rwlock the
 * thread holds for reading (succeeds: readers share it).  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t busy_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t rec_m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_rwlock_t table_rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t held, tried;

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&busy_m));
    pthread_barrier_wait(&held);
    pthread_barrier_wait(&tried);
    OK(pthread_mutex_unlock(&busy_m));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&held, NULL, 2));
    OK(pthread_barrier_init(&tried, NULL, 2));
    pthread_t t = spawn_thread(holder, NULL);
    pthread_barrier_wait(&held);
    CHECK_RC(pthread_mutex_trylock(&busy_m), EBUSY); /* another thread's */
    pthread_barrier_wait(&tried);
    join_thread(t);

    OK(pthread_mutex_lock(&rec_m));
    OK(pthread_mutex_trylock(&rec_m));
    OK(pthread_mutex_unlock(&rec_m));
    OK(pthread_mutex_unlock(&rec_m));

    OK(pthread_rwlock_rdlock(&table_rw));
    OK(pthread_rwlock_tryrdlock(&table_rw));
    OK(pthread_rwlock_unlock(&table_rw));
    OK(pthread_rwlock_unlock(&table_rw));
    return 0;
}
