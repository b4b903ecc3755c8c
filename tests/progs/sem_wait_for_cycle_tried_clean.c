/*
 * sem_wait_for_cycle_tried_clean.c - sem_wait_for_cycle.c with the poster
 * taking lock_l by trylock.  A waker that cannot get the lock does not
 * wait for it (no order edge goes into a tried lock either), so the post
 * does not need lock_l and the waiter holding it closes no cycle.
 * No report.
 *
 * EXPECT: none
 */
#define POSTER_TAKE pthread_mutex_trylock
#include "sem_wait_for_cycle.h"
