/*
 * reinit_locked.c - pthread_mutex_init on a mutex this thread holds, and
 * pthread_rwlock_init on an rwlock another thread holds for writing
 * (Helgrind: "pthread_mutex_init: mutex is already locked"; DRD the same).
 *
 * Re-initialising resets the lock under its holder: the holder's unlock
 * then releases a lock it does not own, and a third thread may get in
 * while the holder still thinks it is alone.  Each is destroy-held (the
 * old lock's lifetime ends while it is held), naming the lock.
 *
 * EXPECT: destroy-held lock_m
 * EXPECT: destroy-held table_rw
 * EXPECT-STDERR: re-initialised while this thread holds it
 * EXPECT-STDERR: re-initialised while another thread holds it
 */
#include "progs.h"

static pthread_mutex_t lock_m;
static pthread_rwlock_t table_rw;
static pthread_barrier_t held, reinit;

static void *writer(void *arg)
{
    OK(pthread_rwlock_wrlock(&table_rw));
    pthread_barrier_wait(&held);
    pthread_barrier_wait(&reinit);
    (void)pthread_rwlock_unlock(&table_rw); /* of the new, unlocked rwlock */
    return arg;
}

int main(void)
{
    OK(pthread_mutex_init(&lock_m, NULL));
    OK(pthread_mutex_lock(&lock_m));
    OK(pthread_mutex_init(&lock_m, NULL)); /* the bug: held by this thread */
    OK(pthread_mutex_destroy(&lock_m));

    OK(pthread_rwlock_init(&table_rw, NULL));
    OK(pthread_barrier_init(&held, NULL, 2));
    OK(pthread_barrier_init(&reinit, NULL, 2));
    pthread_t t = spawn_thread(writer, NULL);
    pthread_barrier_wait(&held);
    OK(pthread_rwlock_init(&table_rw, NULL)); /* the bug: held by writer */
    pthread_barrier_wait(&reinit);
    join_thread(t);
    OK(pthread_rwlock_destroy(&table_rw));
    return 0;
}
