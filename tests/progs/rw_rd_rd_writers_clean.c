/*
 * rw_rd_rd_writers_clean.c - rw_rd_rd_clean.c plus a writer that
 * write-locks rw_x and rw_y, one at a time.
 *
 * A writer holding nothing else adds no edge.  Could the read-read
 * "cycle" now deadlock?  Thread 1 holds rw_x(r), thread 2 holds rw_y(r),
 * writers wait on both; on the default prefer-reader kind the readers'
 * second rdlock does not queue behind a *waiting* writer, so both readers
 * finish.  Still clean (contrast rw_prefer_writer_rd_rd.c).
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

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
    run_thread(read_xy, NULL);
    run_thread(write_each, NULL);
    run_thread(read_yx, NULL);
    return 0;
}
