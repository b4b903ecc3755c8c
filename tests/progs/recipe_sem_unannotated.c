/*
 * recipe_sem_unannotated.c - recipe_sem_abba.c without the annotations:
 * the inner mutexes are held only inside down and up, never across, so
 * the validator sees no dependency between the two semaphores: no report.
 * The difference from recipe_sem_abba.c is the uld_* calls alone.
 *
 * EXPECT: none
 */
#define RECIPE_ANNOTATE 0
#define RECIPE_INVERTED 1
#include "recipe_sem.h"
