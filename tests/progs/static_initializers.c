/*
 * static_initializers.c - a PTHREAD_MUTEX_INITIALIZER mutex and a
 * PTHREAD_RWLOCK_INITIALIZER rwlock, never passed to an init call, taken
 * in opposite orders: big_lock -> table_rwlock(w), then (later)
 * table_rwlock(r) -> big_lock.
 *
 * Concurrently: the reader holds table_rwlock and waits for big_lock; the
 * other thread holds big_lock and its writer waits for the reader.
 * Deadlock.  The locks first appear at their first use, and their names
 * are their symbols.
 *
 * EXPECT: lock-order-inversion big_lock table_rwlock
 */
#include "progs.h"

static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t table_rwlock = PTHREAD_RWLOCK_INITIALIZER;

static void *update_table(void *arg)
{
    OK(pthread_mutex_lock(&big_lock));
    OK(pthread_rwlock_wrlock(&table_rwlock));
    OK(pthread_rwlock_unlock(&table_rwlock));
    OK(pthread_mutex_unlock(&big_lock));
    return arg;
}

static void *scan_table(void *arg)
{
    OK(pthread_rwlock_rdlock(&table_rwlock));
    OK(pthread_mutex_lock(&big_lock));
    OK(pthread_mutex_unlock(&big_lock));
    OK(pthread_rwlock_unlock(&table_rwlock));
    return arg;
}

int main(void)
{
    run_thread(update_table, NULL);
    run_thread(scan_table, NULL);
    return 0;
}
