/*
 * self_rw_wr_rd.c - the writer of a default rwlock asks for a read lock.
 *
 * A reader waits for the writer to leave, which is itself.  glibc detects
 * this case and returns EDEADLK (checked); it is still a self-deadlock
 * (write->read) and reported once.  The write hold stays and is released.
 *
 * EXPECT: self-deadlock rw
 */
#include "progs.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

int main(void)
{
    OK(pthread_rwlock_wrlock(&rw));
    CHECK_RC(pthread_rwlock_rdlock(&rw), EDEADLK);
    OK(pthread_rwlock_unlock(&rw));
    return 0;
}
