/*
 * c11_join_holding.c - join_holding.c with C11 threads: main holds
 * state_lock (an mtx_t) and joins with thrd_join a worker that took
 * state_lock once and finished.  Had main taken the lock first, the worker
 * would block on it and thrd_join would never return.  thrd_join waits for
 * the thread's end like pthread_join: the same wait-for cycle.
 *
 * EXPECT: wait-for-cycle state_lock 'thread T2'
 */
#include "progs.h"

#include <threads.h>

static mtx_t state_lock;
static pthread_barrier_t worker_done;
static int state;

static int worker(void *arg)
{
    (void)arg;
    CHECK(mtx_lock(&state_lock) == thrd_success);
    state++;
    CHECK(mtx_unlock(&state_lock) == thrd_success);
    pthread_barrier_wait(&worker_done);
    return 7;
}

int main(void)
{
    thrd_t t;
    int res = 0;
    CHECK(mtx_init(&state_lock, mtx_plain) == thrd_success);
    uld_lock_set_name(&state_lock, "state_lock");
    OK(pthread_barrier_init(&worker_done, NULL, 2));
    CHECK(thrd_create(&t, worker, NULL) == thrd_success);
    pthread_barrier_wait(&worker_done); /* the worker is past its lock */
    CHECK(mtx_lock(&state_lock) == thrd_success);
    CHECK(thrd_join(t, &res) == thrd_success); /* stop(): join under the state lock */
    CHECK(mtx_unlock(&state_lock) == thrd_success);
    CHECK(state == 1 && res == 7);
    mtx_destroy(&state_lock);
    return 0;
}
