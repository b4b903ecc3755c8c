/*
 * recordless_use_after_destroy.c - a per-request lock taken holding
 * nothing (no record, so no tombstone at its destroy), destroyed, then
 * locked again: use-after-destroy, with the destroy's line (kept in the
 * lock's tag word).
 *
 * EXPECT: use-after-destroy *
 * EXPECT-STDERR: destroyed at [^\n]*recordless_use_after_destroy\.c:{{line:destroy}}\)
 */
#include "recordless.h"

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    request_lock(r);
    request_unlock(r);
    OK(pthread_mutex_destroy(&r->lock)); /* @line:destroy */
    CHECK(pthread_mutex_lock(&r->lock) == EINVAL); /* the bug */
    free(r);
    return 0;
}
