/*
 * once_init_abba.h - an ABBA deadlock with one side inside a pthread_once
 * initialiser that never returns, for once_init_*.c.
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
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

static void deadlock_in_once(void)
{
    OK(pthread_barrier_init(&both_hold_one, NULL, 2));
    spawn_thread(thread_ba, NULL);
    pthread_once(&setup_once, setup);
}
