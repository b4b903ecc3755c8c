/*
 * join_announced_loop_rwlock.c - join_announced_loop_then_lock.c with
 * stats_lock an rwlock taken for writing: its acquisition after the last
 * announcement repeats one forgotten two hundred times, and may fail, and
 * still counts.
 *
 * EXPECT: wait-for-cycle stats_lock 'thread T2'
 */
#define LOCK_AFTER
#define STATS_RWLOCK
#include "join_announced_loop.h"
