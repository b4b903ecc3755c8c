/*
 * recipe_spin_unannotated.c - recipe_spin_abba.c without the annotations:
 * the same inversion, but the locks are atomic words that no interposer
 * can see (no pthread call at all), so nothing is reported.  This is why
 * the recipe exists: the difference from recipe_spin_abba.c is the three
 * uld_* calls alone.
 *
 * EXPECT: none
 */
#define RECIPE_ANNOTATE 0
#define RECIPE_INVERTED 1
#include "recipe_spin.h"
