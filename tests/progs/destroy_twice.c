/*
 * destroy_twice.c - pthread_mutex_destroy() called twice on one mutex (two
 * cleanup paths that both own it).
 *
 * glibc accepts the second destroy (0, checked); POSIX leaves it
 * undefined.  One use-after-destroy, naming the first destroy.
 *
 * EXPECT: use-after-destroy lock_m
 * EXPECT-STDERR: destroyed twice
 * EXPECT-STDERR: destroyed at .*destroy_twice\.c:{{line:first}}\b
 */
#include "progs.h"

static pthread_mutex_t lock_m;

static __attribute__((noinline)) void cleanup(void)
{
    OK(pthread_mutex_destroy(&lock_m)); /* @line:first */
}

int main(void)
{
    OK(pthread_mutex_init(&lock_m, NULL));
    OK(pthread_mutex_lock(&lock_m));
    OK(pthread_mutex_unlock(&lock_m));
    cleanup();
    OK(pthread_mutex_destroy(&lock_m));
    return 0;
}
