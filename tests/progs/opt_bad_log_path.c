/*
 * opt_bad_log_path.c - log_path names a file in a directory that does
 * not exist; the program then has an ABBA.
 *
 * The validator cannot open the log: it says so in one clear line on
 * stderr naming the path (no second line names it), and falls back to
 * stderr for the human reports, so the inversion report appears there.
 * The JSON file (json_path) is unaffected and holds the report; the error
 * makes the exit status 66.
 *
 * OPTIONS: log_path=/nonexistent/dir/x.log
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: ^ulockdep: .*?/nonexistent/dir/x\.log
 * EXPECT-NOT-STDERR: /nonexistent/dir/x\.log.*\n[\s\S]*?/nonexistent/dir/x\.log
 * EXPECT-STDERR: possible circular locking dependency detected
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));

    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return 0;
}
