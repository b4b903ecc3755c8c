/*
 * recordless_destroy_held.c - a worker holds a per-request lock it took
 * holding nothing (no record); main destroys it meanwhile (glibc says
 * EBUSY).  destroy-held, naming the lock.
 *
 * EXPECT: destroy-held request_new:*#2
 */
#include "recordless.h"

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    pthread_t t = holder_start(r);
    CHECK(pthread_mutex_destroy(&r->lock) == EBUSY); /* the bug */
    holder_stop(t);
    request_free(r);
    return 0;
}
