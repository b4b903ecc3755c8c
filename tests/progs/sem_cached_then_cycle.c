/*
 * sem_cached_then_cycle.c - a binary semaphore used as a lock, validated
 * once and then taken from the caches: the main thread does
 * sem_wait(sem_s); lock(lock_l); unlock(lock_l); sem_post(sem_s) a
 * thousand times (sem_s -> lock_l: its post needs lock_l).  Then thread_b
 * takes lock_l and waits on sem_s holding it: lock_l -> sem_s closes the
 * cycle, the ABBA of sem_as_lock.c.
 *
 * The thousand cached waits and posts must leave the evidence in place and
 * the new waiter (a thread new to sem_s, holding a lock) must miss every
 * cache and be searched.
 *
 * EXPECT: wait-for-cycle lock_l sem_s
 */
#define SEM_TOKENS 1
#include "sem_cached_rounds.h"
