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
#include "once_init_abba.h"

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&outer)); /* a first edge: its graph dump loads libdw */
    OK(pthread_mutex_lock(&inner));
    OK(pthread_mutex_unlock(&inner));
    OK(pthread_mutex_unlock(&outer));
    deadlock_in_once();
    return 0;
}
