/*
 * self_rw_wr_wr.c - the writer of a default rwlock asks for the write lock
 * again.
 *
 * glibc returns EDEADLK (checked); a write->write self-deadlock, reported
 * once.  The one write hold is released normally.
 *
 * EXPECT: self-deadlock rw
 */
#include "progs.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

int main(void)
{
    OK(pthread_rwlock_wrlock(&rw));
    CHECK_RC(pthread_rwlock_wrlock(&rw), EDEADLK);
    OK(pthread_rwlock_unlock(&rw));
    return 0;
}
