/*
 * recordless_join_ended.c - the worker takes a per-request lock holding
 * nothing (no record) and ends before anyone holds the lock: its end keeps
 * the need by address (the record is made from the lock's tag when the
 * thread ends).  Main then takes the lock and joins holding it: the same
 * wait-for cycle as if the worker were still running.
 *
 * EXPECT: wait-for-cycle request_new:*#2 'thread T2'
 */
#include "recordless.h"

static void *worker(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    r->state++;
    request_unlock(r);
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = spawn_thread(worker, r);
    while (!__atomic_load_n(&r->state, __ATOMIC_ACQUIRE)) /* not a lock: the worker's own */
        sched_yield();
    struct timespec pause = {0, 20 * 1000 * 1000}; /* and past its end */
    nanosleep(&pause, NULL);
    request_lock(r);
    join_thread(t);
    request_unlock(r);
    request_free(r);
    return 0;
}
