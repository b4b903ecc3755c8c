/*
 * recordless_kill_blocked.c - a worker takes a per-request lock holding
 * nothing (no record) and never lets go, outside the validator; main then
 * blocks on it, and the program is killed (SIGTERM, as `timeout` does).
 * The kill-time report names the lock main waits for: a lock another
 * thread must wait for always gets its record (the waiter's slow path).
 *
 * HANGS: 8
 * EXPECT-SIGNAL: SIGTERM
 * EXPECT: blocked-at-kill request_new:*#2
 */
#include "recordless.h"

#include <signal.h>

static int held;

static void *worker(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    flag_set(&held);
    for (;;) /* the bug: it keeps the lock */
        pause();
    return NULL;
}

static void *killer(void *arg)
{
    struct timespec ts = {1, 0}; /* main is blocked by then */
    nanosleep(&ts, NULL);
    raise(SIGTERM);
    return arg;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    spawn_thread(worker, r);
    flag_wait(&held);
    spawn_thread(killer, NULL);
    request_lock(r); /* blocks forever */
    return 0;
}
