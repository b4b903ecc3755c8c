/*
 * sem_post_cached_free_clean.c - sem_post_cached_cycle.c's clean twin:
 * after the thousand posts made holding big, the poster posts once more
 * holding only lock_m, a post with a key of its own that is checked:
 * posting sem does not need big after all.  No report.
 *
 * EXPECT: none
 */
#define WAKE_FREE_LAST
#include "wake_cached_rounds.h"
