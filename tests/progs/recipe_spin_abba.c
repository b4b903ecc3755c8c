/*
 * recipe_spin_abba.c - README recipe 1, annotated: a spin lock built on
 * atomic_exchange (recipe_spin.h) with uld_lock_init / uld_acquire /
 * uld_release.  add_row takes table_lock then stats_lock; report_stats,
 * run later, takes stats_lock then table_lock.  Run at the same time each
 * spins forever on the lock the other holds: with the annotation the
 * validator reports the inversion like a mutex one.  The failed trylock of
 * a held spin lock is not annotated (it took nothing): no report of its own.
 *
 * EXPECT: lock-order-inversion stats_lock table_lock
 */
#define RECIPE_ANNOTATE 1
#define RECIPE_INVERTED 1
#include "recipe_spin.h"
