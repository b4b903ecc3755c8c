/*
 * depth150_clean.c - one thread holds 150 locks at once: it takes them in
 * index order and releases them in reverse, then again releasing in
 * index order (first-in first-out).
 *
 * Always the same order, so no cycle.  The locks are of one class (one
 * init site), nested in itself, which is not a class cycle.  150 is
 * beyond the kernel's 48-deep held-lock stack but within ulockdep's; it
 * must neither report nor hit a limit.
 *
 * EXPECT: none
 */
#include "progs.h"

#define DEPTH 150

static __attribute__((noinline)) pthread_mutex_t *make_locks(int n)
{
    pthread_mutex_t *locks = calloc((size_t)n, sizeof(*locks));
    CHECK(locks != NULL);
    for (int i = 0; i < n; i++)
        OK(pthread_mutex_init(&locks[i], NULL));
    return locks;
}

int main(void)
{
    pthread_mutex_t *locks = make_locks(DEPTH);
    for (int i = 0; i < DEPTH; i++)
        OK(pthread_mutex_lock(&locks[i]));
    for (int i = DEPTH - 1; i >= 0; i--)
        OK(pthread_mutex_unlock(&locks[i]));

    for (int i = 0; i < DEPTH; i++)
        OK(pthread_mutex_lock(&locks[i]));
    for (int i = 0; i < DEPTH; i++)
        OK(pthread_mutex_unlock(&locks[i]));

    for (int i = 0; i < DEPTH; i++)
        OK(pthread_mutex_destroy(&locks[i]));
    free(locks);
    return 0;
}
