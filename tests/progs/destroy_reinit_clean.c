/*
 * destroy_reinit_clean.c - locks destroyed and made again before their
 * next use: pthread_*_init after destroy, and a mutex and a rwlock
 * assigned their static initialisers after destroy.
 *
 * Each is a new lock (POSIX allows re-initialising a destroyed object; the
 * assignment rewrites the whole object, and glibc treats it as new), so
 * nothing is used after destroy.  Clean twin of destroy_lock_after.c,
 * destroy_rw_rdlock_after.c and destroy_spin_lock_after.c.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_m, lock_assigned;
static pthread_rwlock_t lock_rw, rw_assigned;
static pthread_spinlock_t lock_sp;

int main(void)
{
    for (int i = 0; i < 3; i++) {
        OK(pthread_mutex_init(&lock_m, NULL));
        OK(pthread_mutex_lock(&lock_m));
        OK(pthread_mutex_unlock(&lock_m));
        OK(pthread_mutex_destroy(&lock_m));
        OK(pthread_rwlock_init(&lock_rw, NULL));
        OK(pthread_rwlock_rdlock(&lock_rw));
        OK(pthread_rwlock_unlock(&lock_rw));
        OK(pthread_rwlock_destroy(&lock_rw));
        OK(pthread_spin_init(&lock_sp, PTHREAD_PROCESS_PRIVATE));
        OK(pthread_spin_lock(&lock_sp));
        OK(pthread_spin_unlock(&lock_sp));
        OK(pthread_spin_destroy(&lock_sp));
        lock_assigned = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
        OK(pthread_mutex_lock(&lock_assigned));
        OK(pthread_mutex_unlock(&lock_assigned));
        OK(pthread_mutex_destroy(&lock_assigned));
        rw_assigned = (pthread_rwlock_t)PTHREAD_RWLOCK_INITIALIZER;
        OK(pthread_rwlock_wrlock(&rw_assigned));
        OK(pthread_rwlock_unlock(&rw_assigned));
        OK(pthread_rwlock_destroy(&rw_assigned));
    }
    return 0;
}
