/*
 * recipe_sem_abba.c - README recipe 3, annotated: fio's stat_sem /
 * rusage_sem inversion with a mutex+condvar+counter semaphore
 * (recipe_sem.h).  stat_thread downs stat_sem then rusage_sem; backend,
 * run later, downs rusage_sem then stat_sem.  Run at the same time each
 * waits in the other's down forever.  With the annotation (acquire on
 * down, release on up, a try for down_trylock) the validator reports the
 * inversion, naming both semaphores; the failed trylock adds nothing.
 *
 * EXPECT: lock-order-inversion rusage_sem stat_sem
 */
#define RECIPE_ANNOTATE 1
#define RECIPE_INVERTED 1
#include "recipe_sem.h"
