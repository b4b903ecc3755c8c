/*
 * recordless_join_holding.c - join_holding.c with a per-request lock: the
 * worker takes it holding nothing (no record yet) and exits; main then
 * holds it and joins the worker.  The worker's end needed the lock all the
 * same: a wait-for cycle, naming the lock by its init site and ordinal.
 *
 * EXPECT: wait-for-cycle request_new:*#2 'thread T2'
 * The need's stack is the first one the worker took at request_lock's
 * site (its warm-up: one stack per class and site, as for recorded locks).
 *
 * EXPECT-STDERR: (?s)\[wait-for-cycle\].*?thread T2 took it at:.*?worker\+[^\n]*recordless_join_holding\.c:
 */
#include "recordless.h"

static pthread_barrier_t worker_done;

static void *worker(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    r->state++;
    request_unlock(r);
    pthread_barrier_wait(&worker_done);
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    OK(pthread_barrier_init(&worker_done, NULL, 2));
    pthread_t t = spawn_thread(worker, r);
    pthread_barrier_wait(&worker_done);
    request_lock(r);
    join_thread(t);
    request_unlock(r);
    CHECK(r->state == 1);
    request_free(r);
    return 0;
}
