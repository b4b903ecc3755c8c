/*
 * recordless_reinit_held.c - a worker holds a per-request lock it took
 * holding nothing (no record); main initialises it again meanwhile (it
 * would be the worker's unlock that corrupts the new lock).  The report
 * reinit_locked.c gets for a recorded lock, naming this one.
 *
 * EXPECT: destroy-held request_new:*#2
 * EXPECT-STDERR: re-initialised while another thread holds it
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
    (void)pthread_mutex_unlock(&r->lock); /* of the new, unlocked mutex */
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = spawn_thread(worker, r);
    flag_wait(&held);
    OK(pthread_mutex_init(&r->lock, NULL)); /* the bug */
    flag_set(&done);
    join_thread(t);
    return 0;
}
