/*
 * barrier_rounds_mutex.c - barrier_holding.c over twenty rounds: the
 * loader's mutex acquisition in the last round repeats the earlier ones
 * (taken back after each pass) and still counts as needed to arrive.
 *
 * EXPECT: wait-for-cycle table_lock arrived
 */
#include <pthread.h>
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
#define TAKE pthread_mutex_lock
#define RELEASE pthread_mutex_unlock
#include "barrier_rounds.h"
