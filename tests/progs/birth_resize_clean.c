/*
 * birth_resize_clean.c - records made while the address table is rebuilt,
 * over and over: four threads each lock, for the first time, thousands of
 * new mutexes in a fresh heap block per round, destroy them and free the
 * block.  Freed tombstones leave deleted slots, so the table is rebuilt
 * every round or two (carrying live and dead slots, dropping deleted ones)
 * while the other threads keep making and burying records.  A record lost
 * by a rebuild would stay counted live forever.  No report, no record left
 * live.
 *
 * OPTIONS: stats=1
 * EXPECT: none
 * EXPECT-STDERR: locks created \(0 live\)
 * TIMEOUT: 120
 */
#include "progs.h"

#define WORKERS 4
#define ROUNDS 40
#define LOCKS 2000

static __attribute__((noinline)) void lock_init(pthread_mutex_t *m)
{
    OK(pthread_mutex_init(m, NULL));
}

static void *worker(void *arg)
{
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_t *locks = calloc(LOCKS, sizeof(*locks));
        CHECK(locks != NULL);
        for (int i = 0; i < LOCKS; i++) {
            lock_init(&locks[i]);
            OK(pthread_mutex_lock(&locks[i]));
            OK(pthread_mutex_unlock(&locks[i]));
            OK(pthread_mutex_destroy(&locks[i]));
        }
        free(locks);
    }
    return arg;
}

int main(void)
{
    pthread_t th[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        OK(pthread_create(&th[i], NULL, worker, NULL));
    for (int i = 0; i < WORKERS; i++)
        OK(pthread_join(th[i], NULL));
    return 0;
}
