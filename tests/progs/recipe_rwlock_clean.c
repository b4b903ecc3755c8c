/*
 * recipe_rwlock_clean.c - the clean twin of recipe_rwlock_abba.c:
 * annotated, and context_query takes source_list (read) before ctx_lock,
 * the mixer's order.  No cycle, no report.
 *
 * EXPECT: none
 */
#define RECIPE_ANNOTATE 1
#define RECIPE_INVERTED 0
#include "recipe_rwlock.h"
