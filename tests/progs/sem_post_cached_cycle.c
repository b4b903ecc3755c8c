/*
 * sem_post_cached_cycle.c - sem_wait_for_cycle.c with a thousand posts,
 * all made holding big, the posts after the first from the fast path:
 * posting sem still needs big.  Run at the same time, the waiter sleeps
 * in sem_wait holding big and the poster blocks on big before it can
 * post.
 *
 * EXPECT: wait-for-cycle big sem
 */
#include "wake_cached_rounds.h"
