/*
 * robust_output_full.c - log_path=/dev/full: every write to the log fails
 * (ENOSPC), as on a full disk.  The failure must not be silent: the first
 * failed write says so in one line on stderr, and the reports go to stderr
 * from then on, this one included (the exit status alone, 66, would not
 * say why).  The ABBA: one lock-order-inversion.
 *
 * OPTIONS: log_path=/dev/full
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: ^ulockdep: cannot write to log_path '/dev/full' \(No space left on device\); reports go to stderr from now on$
 * EXPECT-STDERR: possible circular locking dependency detected
 * EXPECT-STDERR: ^ulockdep: SUMMARY: 1 error
 * EXPECT-NOT-STDERR: cannot write to log_path[\s\S]*cannot write to log_path
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void nest(pthread_mutex_t *a, pthread_mutex_t *b)
{
    OK(pthread_mutex_lock(a));
    OK(pthread_mutex_lock(b));
    OK(pthread_mutex_unlock(b));
    OK(pthread_mutex_unlock(a));
}

int main(void)
{
    nest(&lock_a, &lock_b);
    nest(&lock_b, &lock_a);
    return 0;
}
