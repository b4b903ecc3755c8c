/*
 * birth_race.h - the program of birth_race_clean.c and birth_race_inversion.c.
 *
 * The main thread initialises LOCKS mutexes at one call site, holding
 * nothing (after the first, each is only a pending tag: lazy.c), and two
 * threads then lock and unlock all of them in the same order at the same
 * time, so that both often ask for the record of one lock at once.  Each lock must get one record:
 * after every lock is destroyed none is live (a second record at an
 * address would outlive the destroy, which buries the one it finds).
 * Then the main thread takes the first two locks in one order, and again
 * in the same or the other order.
 */
#include "progs.h"

#define LOCKS 4000

static pthread_mutex_t locks[LOCKS];
static pthread_barrier_t start;

static __attribute__((noinline)) void lock_init(pthread_mutex_t *m)
{
    OK(pthread_mutex_init(m, NULL));
}

static void take_two(int first, int second)
{
    OK(pthread_mutex_lock(&locks[first]));
    OK(pthread_mutex_lock(&locks[second]));
    OK(pthread_mutex_unlock(&locks[second]));
    OK(pthread_mutex_unlock(&locks[first]));
}

static void *racer(void *arg)
{
    pthread_barrier_wait(&start);
    for (int i = 0; i < LOCKS; i++) {
        OK(pthread_mutex_lock(&locks[i]));
        OK(pthread_mutex_unlock(&locks[i]));
    }
    return arg;
}

/* reversed: the second pair is taken in the other order */
static int birth_race(int reversed)
{
    pthread_t a, b;
    for (int i = 0; i < LOCKS; i++)
        lock_init(&locks[i]);
    OK(pthread_barrier_init(&start, NULL, 2));
    OK(pthread_create(&a, NULL, racer, NULL));
    OK(pthread_create(&b, NULL, racer, NULL));
    OK(pthread_join(a, NULL));
    OK(pthread_join(b, NULL));
    OK(pthread_barrier_destroy(&start));
    take_two(0, 1);
    if (reversed)
        take_two(1, 0);
    else
        take_two(0, 1);
    for (int i = 0; i < LOCKS; i++)
        OK(pthread_mutex_destroy(&locks[i]));
    return 0;
}
