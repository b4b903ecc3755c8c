/*
 * recipe_rwlock_unannotated.c - recipe_rwlock_abba.c without the
 * annotations: the validator sees ctx_lock (a pthread mutex) but never
 * the atomic rwlock, so the cycle through it is invisible: no report.
 * The difference from recipe_rwlock_abba.c is the uld_* calls alone.
 *
 * EXPECT: none
 */
#define RECIPE_ANNOTATE 0
#define RECIPE_INVERTED 1
#include "recipe_rwlock.h"
