/*
 * recordless_exit_holding.c - a worker takes a per-request lock holding
 * nothing (no record) and returns without unlocking it: exit-holding,
 * naming the lock by its init site.
 *
 * EXPECT: exit-holding request_new:*#2
 */
#include "recordless.h"

static void *worker(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    return NULL; /* the bug: r->lock stays locked */
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    run_thread(worker, r);
    return 0;
}
