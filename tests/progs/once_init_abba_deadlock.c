/*
 * once_init_abba_deadlock.c - abba_deadlock.c with one side inside a
 * pthread_once initialiser, which it never leaves: the process is killed.
 * Inside one-time initialisers libdw is not loaded (its debuginfod client
 * starts libraries through their own pthread_once:
 * once_openssl_graph_servers), but here an earlier graph dump loaded it,
 * so the report, written before the thread blocks, names its locks.
 *
 * HANGS: 3
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-GRAPH-EDGE: outer inner
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold_one;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static void *thread_ba(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_a)); /* blocks forever */
    return arg;
}

static void setup(void)
{
    OK(pthread_mutex_lock(&lock_a));
    pthread_barrier_wait(&both_hold_one);
    OK(pthread_mutex_lock(&lock_b)); /* blocks forever */
}

int main(void)
{
    OK(pthread_mutex_lock(&outer)); /* a first edge: its graph dump loads libdw */
    OK(pthread_mutex_lock(&inner));
    OK(pthread_mutex_unlock(&inner));
    OK(pthread_mutex_unlock(&outer));
    OK(pthread_barrier_init(&both_hold_one, NULL, 2));
    spawn_thread(thread_ba, NULL);
    pthread_once(&setup_once, setup);
    return 0;
}
