/*
 * recordless_barrier_reused.c - recordless_barrier_holding.c after the
 * loader went through request locks whose memory was re-initialised
 * without a destroy (glibc allows it): one slot over and over, then more
 * slots than the thread's list of taken locks holds.  Those lifetimes end
 * unannounced; the lock the loader takes last must still count as taken
 * on its way to the barrier.
 *
 * EXPECT: wait-for-cycle request_new:*#2 arrived
 */
#include "recordless.h"

#include <semaphore.h>

#define SLOTS 12

static pthread_barrier_t arrived;
static sem_t loaded;
static struct request slots[SLOTS];

/* a request's lock made again where the last one was, never destroyed */
static __attribute__((noinline)) void request_reset(struct request *r)
{
    OK(pthread_mutex_init(&r->lock, NULL));
}

static void use(struct request *r)
{
    request_reset(r);
    request_lock(r);
    r->state++;
    request_unlock(r);
}

static void *loader(void *arg)
{
    struct request *r = arg;
    request_thread_warm();
    use(&slots[0]); /* the site's first: its stack */
    for (int i = 0; i < 3 * SLOTS; i++)
        use(&slots[0]);
    for (int i = 0; i < SLOTS; i++) {
        use(&slots[i]);
        request_reset(&slots[i]); /* that lifetime ends here */
    }
    request_lock(r);
    r->state++;
    request_unlock(r);
    CHECK(sem_post(&loaded) == 0);
    pthread_barrier_wait(&arrived);
    return NULL;
}

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    OK(pthread_barrier_init(&arrived, NULL, 2));
    CHECK(sem_init(&loaded, 0, 0) == 0);
    pthread_t t = spawn_thread(loader, r);
    CHECK(sem_wait(&loaded) == 0); /* the loader is past its lock: this run ends */
    request_lock(r);
    pthread_barrier_wait(&arrived); /* holding r->lock */
    request_unlock(r);
    join_thread(t);
    CHECK(r->state == 1 && slots[0].state == 3 * SLOTS + 2);
    request_free(r);
    return 0;
}
