/*
 * self_rw_rd_wr.c - a reader of a default rwlock asks for the write lock
 * (pthread_rwlock_timedwrlock, 50 ms).
 *
 * A writer waits for all readers to leave, including itself: the upgrade
 * can never succeed.  glibc does not detect it (the thread is not the
 * current writer) and waits until the timeout: ETIMEDOUT, checked.  The
 * validator reports self-deadlock (read->write) before the call blocks;
 * the failed call adds no hold, the read hold is released normally.
 *
 * EXPECT: self-deadlock rw
 */
#include "progs.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

int main(void)
{
    OK(pthread_rwlock_rdlock(&rw));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
    CHECK_RC(pthread_rwlock_timedwrlock(&rw, &deadline), ETIMEDOUT);
    OK(pthread_rwlock_unlock(&rw));
    return 0;
}
