/*
 * barrier_rounds_mutex.c - barrier_holding.c over twenty rounds.  Each
 * pass restarts what the loader needed to arrive and sets its memo entries
 * aside, so its acquisitions after the first come back through the
 * take-back (the wrappers' own, fastpath.h): the one in the last round
 * repeats the earlier ones and still counts as needed to arrive.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#define ROUNDS 20
#define EXPECTED_ROWS ROUNDS
#include "barrier_holding.h"

static void loader_work(int *rows)
{
    (void)rows;
}
