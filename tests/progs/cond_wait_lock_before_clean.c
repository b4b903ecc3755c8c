/*
 * cond_wait_lock_before_clean.c - clean twin of cond_wait_inversion.c:
 * the waiter takes lock_l *before* lock_m, then waits on `ready` with
 * lock_m.
 *
 * The re-acquisition of lock_m under lock_l records lock_l -> lock_m, the
 * order already used on the way in; the signaller takes only lock_m.  One
 * consistent order, no cycle, no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t holding;
static int is_ready;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    OK(pthread_mutex_lock(&lock_m));
    pthread_barrier_wait(&holding);
    while (!is_ready)
        OK(pthread_cond_wait(&ready, &lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

static void *signaller(void *arg)
{
    pthread_barrier_wait(&holding);
    OK(pthread_mutex_lock(&lock_m));
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
