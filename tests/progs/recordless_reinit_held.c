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

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = holder_start(r);
    OK(pthread_mutex_init(&r->lock, NULL)); /* the bug */
    holder_stop(t);
    return 0;
}
