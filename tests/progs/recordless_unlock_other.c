/*
 * recordless_unlock_other.c - a worker holds a per-request lock it took
 * holding nothing (no record); main unlocks it.  unlock-not-owner, naming
 * the lock.  The worker then unlocks it too (of an unlocked normal mutex:
 * glibc does not check), so it exits holding nothing.
 *
 * EXPECT: unlock-not-owner request_new:*#2
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
    (void)pthread_mutex_unlock(&r->lock);
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = spawn_thread(worker, r);
    flag_wait(&held);
    request_unlock(r); /* the bug: the worker's */
    flag_set(&done);
    join_thread(t);
    return 0;
}
