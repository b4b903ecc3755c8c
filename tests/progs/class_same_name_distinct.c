/*
 * class_same_name_distinct.c - two classes whose sites print alike must
 * still get two names.  Two never-initialised heap locks are first taken in
 * one helper, take_first(), reached from open_log() for one and from
 * open_index() for the other: two first-use classes (the site and its
 * caller), both printed "take_first:LINE" (leveldb's tests showed 23
 * classes named `DBImpl::TEST_CompactMemTable():650`).
 *
 * One thread takes the log lock then the index lock, a later one the index
 * lock then the log lock, on the same two objects: an inversion.  Its two
 * locks must not read the same: the second class to be named gets its
 * stable key appended, `take_first:LINE [take_first@...<open_index@...]`.
 *
 * EXPECT: lock-order-inversion take_first:*#1 'take_first:* [[]take_first@class_same_name_distinct.c:+*<open_*]#1'
 */
#include "progs.h"

struct file { pthread_mutex_t lock; int users; }; /* calloc'd: never initialised */

static __attribute__((noinline)) void take_first(struct file *f)
{
    OK(pthread_mutex_lock(&f->lock));
    f->users++;
    OK(pthread_mutex_unlock(&f->lock));
}

static __attribute__((noinline)) void open_log(struct file *f) { take_first(f); }
static __attribute__((noinline)) void open_index(struct file *f) { take_first(f); }

static struct file *log_file, *index_file;

static void *log_then_index(void *arg)
{
    OK(pthread_mutex_lock(&log_file->lock));
    OK(pthread_mutex_lock(&index_file->lock));
    OK(pthread_mutex_unlock(&index_file->lock));
    OK(pthread_mutex_unlock(&log_file->lock));
    return arg;
}

static void *index_then_log(void *arg)
{
    OK(pthread_mutex_lock(&index_file->lock));
    OK(pthread_mutex_lock(&log_file->lock));
    OK(pthread_mutex_unlock(&log_file->lock));
    OK(pthread_mutex_unlock(&index_file->lock));
    return arg;
}

int main(void)
{
    log_file = calloc(1, sizeof(*log_file));
    index_file = calloc(1, sizeof(*index_file));
    CHECK(log_file && index_file);
    open_log(log_file);
    open_index(index_file);
    run_thread(log_then_index, NULL);
    run_thread(index_then_log, NULL);
    CHECK(log_file->users == 1 && index_file->users == 1);
    return 0;
}
