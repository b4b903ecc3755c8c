/*
 * barrier_holding.c - main waits at a barrier holding table_lock; the
 * other participant takes table_lock on its way to the barrier.  Here the
 * participant got there first, so this run ends; had main come first, the
 * participant would block on table_lock and never reach the barrier, and
 * main would wait there forever.  A barrier waited at holding L, where
 * another participant needed L to arrive, is a wait-for cycle.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#define EXPECTED_ROWS 1
#include "barrier_holding.h"

static void loader_work(int *rows)
{
    (void)rows;
}
