/*
 * rw_prefer_writer_rd_rd.c - the read-read "cycle" of
 * rw_rd_rd_writers_clean.c on rwlocks of kind
 * PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP.
 *
 * On this kind a new reader queues behind a waiting writer.  Thread 1
 * holds rw_x(r) and wants rw_y(r); thread 2 holds rw_y(r) and wants
 * rw_x(r); a writer waiting on each lock (write_each exists in this
 * program) makes both readers wait: deadlock.  Reads of such a lock count
 * as ordinary (non-recursive) acquisitions, so rw_x -> rw_y -> rw_x is an
 * inversion.  The writer holds one lock at a time and adds no edge.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x, rw_y;

static void *read_xy(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *read_yx(void *arg)
{
    OK(pthread_rwlock_rdlock(&rw_y));
    OK(pthread_rwlock_rdlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

static void *write_each(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

int main(void)
{
    pthread_rwlockattr_t attr;
    OK(pthread_rwlockattr_init(&attr));
    OK(pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
    OK(pthread_rwlock_init(&rw_x, &attr));
    OK(pthread_rwlock_init(&rw_y, &attr));
    OK(pthread_rwlockattr_destroy(&attr));

    run_thread(read_xy, NULL);
    run_thread(write_each, NULL);
    run_thread(read_yx, NULL);
    OK(pthread_rwlock_destroy(&rw_x));
    OK(pthread_rwlock_destroy(&rw_y));
    return 0;
}
