/*
 * sem_binary_plain_post_cycle.c - a binary semaphore used as a lock: the
 * main thread does sem_wait(sem_s); lock(lock_l); unlock(lock_l);
 * sem_post(sem_s) many times, then once sem_wait(sem_s); sem_post(sem_s)
 * with nothing in between.  Later thread_b takes lock_l and waits on sem_s
 * holding it.
 *
 * While main holds sem_s's only token it takes lock_l (sem_s -> lock_l);
 * thread_b holds lock_l and waits for the token (lock_l -> sem_s).  Had
 * thread_b run during main's loop, each would wait for the other: the ABBA
 * of two mutexes, and a later round of main that takes no lock_l does not
 * make the earlier rounds safe.  The post of a token its taker holds is a
 * release, not a wake-up whose needs shrink with each post.
 *
 * EXPECT: wait-for-cycle sem_s lock_l
 */
#define SEM_TOKENS 1
#define SEM_PLAIN_LAST_ROUND
#include "sem_cached_rounds.h"
