/*
 * cond_wait_inversion.c - a thread takes lock_m, then lock_l, then waits
 * on cond `ready` with lock_m while still holding lock_l.
 *
 * pthread_cond_wait releases lock_m and, after the wakeup, takes it again
 * *while lock_l is held*: that records lock_l -> lock_m, the reverse of
 * the lock_m -> lock_l taken on the way in, so the re-acquisition closes
 * the cycle.  It is a real deadlock: the waiter holds lock_l while it
 * waits for lock_m, and any thread that takes lock_m and then lock_l (the
 * waiter's own entry path) blocks it forever.  The signaller here takes
 * only lock_m, so this run completes; a barrier guarantees the waiter
 * really waits (it holds lock_m until it is inside pthread_cond_wait).
 *
 * The wait itself is a second problem: the waiter holds lock_l while it
 * waits on `ready`, which is only ever signalled with lock_m held, and
 * lock_m -> lock_l is recorded: a thread entering the same path holds
 * lock_m while it blocks on lock_l, so the signaller never gets lock_m.
 *
 * EXPECT: lock-order-inversion lock_m lock_l
 * EXPECT: wait-for-cycle lock_m ready lock_l
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t holding;
static int is_ready;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    OK(pthread_mutex_lock(&lock_l));
    pthread_barrier_wait(&holding);
    while (!is_ready)
        OK(pthread_cond_wait(&ready, &lock_m)); /* retakes lock_m under lock_l */
    OK(pthread_mutex_unlock(&lock_l));
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

static void *signaller(void *arg)
{
    pthread_barrier_wait(&holding);
    OK(pthread_mutex_lock(&lock_m)); /* granted once the waiter waits */
    is_ready = 1;
    OK(pthread_cond_signal(&ready));
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&holding, NULL, 2));
    pthread_t w = spawn_thread(waiter, NULL);
    pthread_t s = spawn_thread(signaller, NULL);
    join_thread(w);
    join_thread(s);
    return 0;
}
