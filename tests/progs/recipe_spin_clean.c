/*
 * recipe_spin_clean.c - the clean twin of recipe_spin_abba.c: annotated,
 * and both phases take table_lock before stats_lock.  One order, no
 * report: the annotation itself adds nothing false.
 *
 * EXPECT: none
 */
#define RECIPE_ANNOTATE 1
#define RECIPE_INVERTED 0
#include "recipe_spin.h"
