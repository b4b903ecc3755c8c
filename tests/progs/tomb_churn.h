/*
 * tomb_churn.h - the program of tomb_churn_after.c and tomb_churn_clean.c:
 * worker threads churn through request locks while the main thread
 * destroys two locks of its own, victim_rw and victim_mu, and, once the
 * workers are done, uses them again (after.c) or initialises them again
 * first (clean.c).
 *
 * Each worker, holding nothing, initialises, locks (the mutex under the
 * rwlock) and destroys the locks of a few request objects over and over
 * (each new lifetime takes over the slot of its address's tombstone), and
 * those of thousands of distinct ones once each (tens of thousands of
 * tombstones: the address table grows several times, with every tombstone
 * carried over, while the others look locks up), then frees those (freeing
 * ends their tombstones).  The victims' tombstones must survive all of it
 * and still name them, with their destroy's line.
 */
#include "progs.h"

#define WORKERS 4
#define REUSED 8
#define ROUNDS 400
#define DISTINCT 6000

struct request {
    pthread_rwlock_t rw;
    pthread_mutex_t mu;
};

static pthread_rwlock_t victim_rw;
static pthread_mutex_t victim_mu;
static pthread_barrier_t churning;

static __attribute__((noinline)) void request_init(struct request *r)
{
    OK(pthread_rwlock_init(&r->rw, NULL));
    OK(pthread_mutex_init(&r->mu, NULL));
}

static __attribute__((noinline)) void request_lifetime(struct request *r)
{
    request_init(r);
    OK(pthread_rwlock_wrlock(&r->rw));
    OK(pthread_mutex_lock(&r->mu));
    OK(pthread_mutex_unlock(&r->mu));
    OK(pthread_rwlock_unlock(&r->rw));
    OK(pthread_rwlock_destroy(&r->rw));
    OK(pthread_mutex_destroy(&r->mu));
}

static void *worker(void *arg)
{
    (void)arg;
    struct request reused[REUSED];
    struct request *distinct = calloc(DISTINCT, sizeof(*distinct));
    CHECK(distinct != NULL);
    for (int i = 0; i < ROUNDS / 2; i++)
        request_lifetime(&reused[i % REUSED]);
    pthread_barrier_wait(&churning);
    for (int i = 0; i < DISTINCT; i++) {
        request_lifetime(&distinct[i]);
        request_lifetime(&reused[i % REUSED]);
    }
    free(distinct);
    return NULL;
}

/* The workers churn; the main thread destroys the victims meanwhile. */
static void churn(void (*destroy_victims)(void))
{
    pthread_t th[WORKERS];
    OK(pthread_barrier_init(&churning, NULL, WORKERS + 1));
    for (int i = 0; i < WORKERS; i++)
        OK(pthread_create(&th[i], NULL, worker, NULL));
    pthread_barrier_wait(&churning);
    destroy_victims();
    for (int i = 0; i < WORKERS; i++)
        OK(pthread_join(th[i], NULL));
    OK(pthread_barrier_destroy(&churning));
}

static void victims_init(void)
{
    OK(pthread_rwlock_init(&victim_rw, NULL));
    OK(pthread_mutex_init(&victim_mu, NULL));
    OK(pthread_rwlock_rdlock(&victim_rw));
    OK(pthread_mutex_lock(&victim_mu));
    OK(pthread_mutex_unlock(&victim_mu));
    OK(pthread_rwlock_unlock(&victim_rw));
}
