/*
 * destroy_tomb_limit.c - more destroyed locks than the tombstone table
 * keeps (max_tombstones=16), then the last one locked again.  Each is
 * locked once under `outer` before its destroy: a lock destroyed without a
 * record (never locked, or only holding nothing: lazy.c, recordless.c)
 * leaves no tombstone to count.
 *
 * The table fills: one limit-reached warning, and later destroys leave no
 * tombstone.  The mutex is still caught, by glibc's own destroyed mark
 * (lock fails with EINVAL, checked), but where it was destroyed is unknown.
 *
 * OPTIONS: max_tombstones=16
 * EXPECT: limit-reached
 * EXPECT: use-after-destroy locks+*
 * EXPECT-STDERR: destroyed at: unknown
 */
#include "progs.h"

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t locks[20];

int main(void)
{
    for (int i = 0; i < 20; i++) {
        OK(pthread_mutex_init(&locks[i], NULL));
        OK(pthread_mutex_lock(&outer));
        OK(pthread_mutex_lock(&locks[i]));
        OK(pthread_mutex_unlock(&locks[i]));
        OK(pthread_mutex_unlock(&outer));
        OK(pthread_mutex_destroy(&locks[i]));
    }
    CHECK_RC(pthread_mutex_lock(&locks[19]), EINVAL);
    return 0;
}
