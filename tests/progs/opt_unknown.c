/*
 * opt_unknown.c - ULOCKDEP_OPTIONS contains an option that does not
 * exist (no_such_option=1).
 *
 * A typo in an option must be named precisely, on one line of stderr
 * starting "ulockdep: ", and must not stop the program or the checking:
 * the program runs to its end (it says so on stderr), reports nothing and
 * exits 0.  Only one line mentions the option (the NOT-STDERR regex
 * matches two lines that both do).
 *
 * OPTIONS: no_such_option=1
 * EXPECT: none
 * EXPECT-STDERR: ^ulockdep: .*no_such_option
 * EXPECT-NOT-STDERR: no_such_option.*\n[\s\S]*no_such_option
 * EXPECT-STDERR: ^opt_unknown: done$
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
    fprintf(stderr, "opt_unknown: done\n");
    return 0;
}
