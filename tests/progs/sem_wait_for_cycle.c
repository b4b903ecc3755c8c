/*
 * sem_wait_for_cycle.c - a thread holds lock_l while it waits on the
 * semaphore sem_s; the thread that posts sem_s holds lock_l when it posts.
 *
 * The wait records lock_l -> sem_s, the post (the only one seen) records
 * sem_s -> lock_l: a cycle.  Run at the same time, the waiter sleeps in
 * sem_wait holding lock_l and the poster blocks on lock_l before it can
 * post: a deadlock.  Here the waiter runs first and its sem_timedwait
 * (20 ms, count 0) times out; the poster runs after it has been joined,
 * and its post closes the cycle.  Reported although this run got through.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#define POSTER_TAKE pthread_mutex_lock
#include "sem_wait_for_cycle.h"
