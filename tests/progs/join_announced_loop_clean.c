/*
 * join_announced_loop_clean.c - join_announced_loop_then_lock.c's clean
 * twin: the worker takes nothing after its last notify, so the join
 * holding stats_lock waits for nothing the worker still needs.  Each
 * announcement forgets what came before it, also when nothing but the
 * memo saw the repeats.  No report.
 *
 * EXPECT: none
 */
#include "join_announced_loop.h"
