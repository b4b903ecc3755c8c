/*
 * sem_cached_post_clean.c - a counting semaphore (two tokens) posted by the
 * thread that waited on it, its post validated from the cache: the main
 * thread does sem_wait(sem_s); lock(lock_l); unlock(lock_l); sem_post(sem_s)
 * many times, then once sem_wait(sem_s); sem_post(sem_s) with nothing in
 * between.  Later thread_b takes lock_l and waits on sem_s holding it.
 *
 * A post after the poster's own wait counts the locks taken since as
 * needed to reach it, and a post is needed-by-every-wake-up evidence: the
 * last post shows that sem_s can be posted without lock_l, so lock_l ->
 * sem_s (thread_b) closes no cycle.  Both kinds of post have the same held
 * chain at the post; only the locks taken since the wait differ.  A cache
 * that keyed such a post by the held chain alone would skip the last
 * post's check, keep sem_s -> lock_l, and report a false wait-for cycle.
 * (With one token sem_s is a lock, and the order is a real inversion:
 * sem_binary_plain_post_cycle.c.)
 *
 * EXPECT: none
 */
#define SEM_TOKENS 2
#define SEM_PLAIN_LAST_ROUND
#include "sem_cached_rounds.h"
