/*
 * self_rw_rd_rd_clean.c - a thread takes the read side of a default
 * (prefer-reader) rwlock twice, while a writer waits in between.
 *
 * With glibc's default kind a reader never waits for a waiting writer, so
 * the second rdlock succeeds even with a writer queued: recursive reading
 * is safe and must not be reported.  The writer thread is started between
 * the two rdlocks; whether or not it is already queued, the second rdlock
 * succeeds, then both read holds are released and the writer proceeds.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

static void *writer(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw));
    OK(pthread_rwlock_unlock(&rw));
    return arg;
}

int main(void)
{
    OK(pthread_rwlock_rdlock(&rw));
    pthread_t w = spawn_thread(writer, NULL);
    OK(pthread_rwlock_rdlock(&rw));
    OK(pthread_rwlock_unlock(&rw));
    OK(pthread_rwlock_unlock(&rw));
    join_thread(w);
    return 0;
}
