/*
 * self_rw_rd_rd_prefer_writer.c - a thread takes the read side twice of a
 * rwlock of kind PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP.
 *
 * No writer exists in this run, so both rdlocks succeed natively.  But on
 * this kind new readers queue behind a waiting writer: if a writer arrives
 * between the two rdlocks, it waits for our first hold and our second
 * rdlock waits for it - a self-deadlock (docs/reports.md: "read->read on a
 * writer-preferring rwlock").  One report; both holds are then released
 * normally, so nothing else is reported.
 *
 * EXPECT: self-deadlock rw
 */
#include "progs.h"

static pthread_rwlock_t rw;

int main(void)
{
    pthread_rwlockattr_t attr;
    OK(pthread_rwlockattr_init(&attr));
    OK(pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
    OK(pthread_rwlock_init(&rw, &attr));
    OK(pthread_rwlockattr_destroy(&attr));

    OK(pthread_rwlock_rdlock(&rw));
    OK(pthread_rwlock_rdlock(&rw));
    OK(pthread_rwlock_unlock(&rw));
    OK(pthread_rwlock_unlock(&rw));
    OK(pthread_rwlock_destroy(&rw));
    return 0;
}
