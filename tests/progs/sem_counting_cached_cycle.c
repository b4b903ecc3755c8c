/*
 * sem_counting_cached_cycle.c - twin of sem_cached_post_clean.c where every
 * post needs lock_l: a counting semaphore (two tokens) that the main thread
 * takes, then lock(lock_l); unlock(lock_l); and posts, a thousand times,
 * the waits after the first from the fast path.  Then thread_b takes lock_l
 * and waits on sem_s holding it.
 *
 * Each post after the poster's own wait needs the locks taken since that
 * wait (sem_s -> lock_l), in every round: had thread_b come while main held
 * both tokens' worth of rounds in flight, main would wait for lock_l and
 * thread_b for a token.  A fast wait must still make the locks taken until
 * the post count, or the thousand rounds would look like posts without
 * lock_l and the cycle would go unseen.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#define SEM_TOKENS 2
#include "sem_cached_rounds.h"
