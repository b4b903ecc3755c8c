/*
 * join_announced_loop_then_lock.c - join_announced_then_lock.c in a pool
 * worker's loop: two hundred notifies under queue_lock, then stats_lock
 * once more.  Had main taken stats_lock first, the worker would block on
 * it and the join would never end.  That last acquisition repeats one the
 * announcements forgot two hundred times, and still counts.
 *
 * EXPECT: wait-for-cycle stats_lock 'thread T2'
 */
#define LOCK_AFTER
#include "join_announced_loop.h"
