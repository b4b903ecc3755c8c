/*
 * destroy_spin_lock_after.c - a spinlock locked after
 * pthread_spin_destroy().
 *
 * glibc's spin destroy does nothing, so the lock and unlock succeed
 * (checked); POSIX leaves it undefined.  One use-after-destroy.
 *
 * EXPECT: use-after-destroy lock_sp
 */
#include "progs.h"

static pthread_spinlock_t lock_sp;

int main(void)
{
    OK(pthread_spin_init(&lock_sp, PTHREAD_PROCESS_PRIVATE));
    OK(pthread_spin_lock(&lock_sp));
    OK(pthread_spin_unlock(&lock_sp));
    OK(pthread_spin_destroy(&lock_sp));
    OK(pthread_spin_lock(&lock_sp));
    OK(pthread_spin_unlock(&lock_sp));
    return 0;
}
