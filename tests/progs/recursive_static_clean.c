/*
 * recursive_static_clean.c - a PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
 * mutex, never passed to an init call, relocked by its owner.
 *
 * As in recursive_relock_clean.c the relock is legal, but here the
 * validator can only learn that the mutex is recursive from the mutex
 * itself (std::recursive_mutex is initialised this way too).  Mistaking it
 * for a normal mutex would give a false self-deadlock.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t rec = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void *owner(void *arg)
{
    OK(pthread_mutex_lock(&rec));
    OK(pthread_mutex_lock(&rec));
    OK(pthread_mutex_unlock(&rec));
    OK(pthread_mutex_unlock(&rec));
    return arg;
}

int main(void)
{
    run_thread(owner, NULL);
    return 0;
}
