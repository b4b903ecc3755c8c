/*
 * rw_unlock_not_held_destroy.c - one misuse, one report: an rwlock that
 * was never locked is unlocked (unlock-not-held), then destroyed.
 *
 * glibc's unlock of a read/write lock nobody holds decrements its reader
 * count, which wraps: from then on the object itself says "held by
 * readers".  The destroy that follows succeeds, and judged by the object
 * it would be a destroy-held by another thread, in a program with one
 * thread.  That state is what the first misuse left behind, so only the
 * first misuse is reported.
 *
 * EXPECT: unlock-not-held table_rw
 */
#include "progs.h"

static pthread_rwlock_t table_rw;

int main(void)
{
    OK(pthread_rwlock_init(&table_rw, NULL));
    OK(pthread_rwlock_rdlock(&table_rw));
    OK(pthread_rwlock_unlock(&table_rw));
    (void)pthread_rwlock_unlock(&table_rw); /* the bug: not held */
    OK(pthread_rwlock_destroy(&table_rw));
    return 0;
}
