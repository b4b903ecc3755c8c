/*
 * recordless_reinit_own.c - main takes a per-request lock holding nothing
 * (no record) and initialises it again while holding it.  destroy-held,
 * as reinit_locked.c for a recorded lock.
 *
 * EXPECT: destroy-held request_new:*#2
 * EXPECT-STDERR: re-initialised while this thread holds it
 */
#include "recordless.h"

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    request_lock(r);
    OK(pthread_mutex_init(&r->lock, NULL)); /* the bug */
    request_free(r);
    return 0;
}
