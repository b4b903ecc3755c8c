/*
 * recordless_clean.c - per-request locks as a server uses them: workers
 * make, lock (holding nothing, and with a second request's lock nested in a
 * fixed order), unlock and destroy them; some are handed to another thread
 * to lock and free; main joins holding nothing.  No report.
 *
 * EXPECT: none
 */
#include "recordless.h"

#include <sched.h>

#define WORKERS 4
#define ROUNDS 2000

static struct request *handoff[WORKERS];

static void *worker(void *arg)
{
    long id = (long)arg;
    request_thread_warm();
    for (int i = 0; i < ROUNDS; i++) {
        struct request *a = request_new(), *b = request_new();
        request_lock(a);
        a->state++;
        request_unlock(a);
        if (i % 8 == 0) { /* nested: a before b, always */
            request_lock(a);
            OK(pthread_mutex_lock(&b->lock));
            b->state++;
            OK(pthread_mutex_unlock(&b->lock));
            request_unlock(a);
        }
        request_free(a);
        /* b goes to the next worker, which locks and frees it */
        struct request *old = __atomic_exchange_n(&handoff[(id + 1) % WORKERS], b,
                                                  __ATOMIC_ACQ_REL);
        if (old) {
            request_lock(old);
            old->state++;
            request_unlock(old);
            request_free(old);
        }
    }
    return NULL;
}

int main(void)
{
    request_thread_warm();
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        t[i] = spawn_thread(worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        join_thread(t[i]);
    for (int i = 0; i < WORKERS; i++)
        if (handoff[i])
            request_free(handoff[i]);
    return 0;
}
