/*
 * recordless_destroy_held.c - a worker holds a per-request lock it took
 * holding nothing (no record); main destroys it meanwhile (glibc says
 * EBUSY).  destroy-held, naming the lock.
 *
 * EXPECT: destroy-held request_new:*#2
 */
#include "recordless.h"

static int held, done;

static void *worker(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    request_lock(r);
    flag_set(&held);
    flag_wait(&done); /* holding r->lock, outside the validator */
    request_unlock(r);
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = spawn_thread(worker, r);
    flag_wait(&held);
    CHECK(pthread_mutex_destroy(&r->lock) == EBUSY); /* the bug */
    flag_set(&done);
    join_thread(t);
    request_free(r);
    return 0;
}
