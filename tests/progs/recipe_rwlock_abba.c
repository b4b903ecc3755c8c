/*
 * recipe_rwlock_abba.c - README recipe 2, annotated: a writer-preferring
 * rwlock made of atomics (recipe_rwlock.h).  The mixer read-locks
 * source_list and then takes ctx_lock (a pthread mutex); context_query,
 * run later, takes ctx_lock and then read-locks source_list.
 *
 * Two readers in opposite orders deadlock only if a reader can wait for
 * a reader, and here it can: once add_source waits to write, it shuts new
 * readers out, context_query's read waits behind it, the writer waits for
 * the mixer's read, and the mixer waits for ctx_lock.  The annotation
 * (no ULD_LOCK_READ_RECURSIVE) says readers wait behind writers, so the
 * cycle is reported, naming both locks.
 *
 * EXPECT: lock-order-inversion ctx_lock source_list
 */
#define RECIPE_ANNOTATE 1
#define RECIPE_INVERTED 1
#include "recipe_rwlock.h"
