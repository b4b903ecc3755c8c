/*
 * recipe_sem_clean.c - the clean twin of recipe_sem_abba.c: annotated,
 * and backend downs stat_sem before rusage_sem, stat_thread's order.  No
 * cycle (the inner mutexes of both semaphores are taken in one order too),
 * no report.
 *
 * EXPECT: none
 */
#define RECIPE_ANNOTATE 1
#define RECIPE_INVERTED 0
#include "recipe_sem.h"
