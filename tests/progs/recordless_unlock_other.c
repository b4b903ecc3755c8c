/*
 * recordless_unlock_other.c - a worker holds a per-request lock it took
 * holding nothing (no record); main unlocks it.  unlock-not-owner, naming
 * the lock.  The worker then unlocks it too (of an unlocked normal mutex:
 * glibc does not check), so it exits holding nothing.
 *
 * EXPECT: unlock-not-owner request_new:*#2
 */
#include "recordless.h"

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = holder_start(r);
    request_unlock(r); /* the bug: the worker's */
    holder_stop(t);
    return 0;
}
