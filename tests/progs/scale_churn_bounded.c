/*
 * scale_churn_bounded.c - lock churn must not grow the validator's memory.
 *
 * Two million lock lifetimes (init, lock in a nested pair, unlock,
 * destroy), half of them in freshly malloc'ed memory that is freed again
 * without destroy, and 2000 threads that each take locks and exit.  Every
 * lifetime is forgotten when it ends, so the peak RSS must stay bounded
 * (the validator's tables are recycled): the program checks VmHWM itself
 * against a bound far below what keeping every lock would cost
 * (2M records * ~150 bytes = 300 MB).
 *
 * TIMEOUT: 60
 * EXPECT: none
 */
#include "progs.h"

#include <unistd.h>

enum { ROUNDS = 1000, PER_ROUND = 1000, THREADS = 2000, MAX_RSS_KB = 160 * 1024 };

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;

static long peak_rss_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

static void churn_pool(pthread_mutex_t *pool, int n)
{
    for (int i = 0; i < n; i++)
        OK(pthread_mutex_init(&pool[i], NULL));
    for (int i = 0; i < n; i++) {
        OK(pthread_mutex_lock(&outer));
        OK(pthread_mutex_lock(&pool[i]));
        OK(pthread_mutex_unlock(&pool[i]));
        OK(pthread_mutex_unlock(&outer));
    }
    for (int i = 0; i < n; i++)
        OK(pthread_mutex_destroy(&pool[i]));
}

static void churn_heap(int n)
{
    pthread_mutex_t **objs = malloc((size_t)n * sizeof(*objs));
    CHECK(objs);
    for (int i = 0; i < n; i++) {
        CHECK((objs[i] = malloc(sizeof(pthread_mutex_t))) != NULL);
        OK(pthread_mutex_init(objs[i], NULL));
        OK(pthread_mutex_lock(&outer));
        OK(pthread_mutex_lock(objs[i]));
        OK(pthread_mutex_unlock(objs[i]));
        OK(pthread_mutex_unlock(&outer));
    }
    for (int i = 0; i < n; i++)
        free(objs[i]); /* no destroy: free ends the lock's life */
    free(objs);
}

static void *short_lived(void *arg)
{
    pthread_mutex_t local = PTHREAD_MUTEX_INITIALIZER;
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(&local));
    OK(pthread_mutex_unlock(&local));
    OK(pthread_mutex_unlock(&outer));
    return arg;
}

int main(void)
{
    static pthread_mutex_t pool[PER_ROUND];
    for (int r = 0; r < ROUNDS; r++) {
        churn_pool(pool, PER_ROUND);
        churn_heap(PER_ROUND);
    }
    for (int i = 0; i < THREADS; i++)
        run_thread(short_lived, NULL);
    long rss = peak_rss_kb();
    if (rss > MAX_RSS_KB) {
        fprintf(stderr, "peak RSS %ld kB exceeds %d kB\n", rss, MAX_RSS_KB);
        return 1;
    }
    printf("scale_churn_bounded: peak RSS %ld kB\n", rss);
    return 0;
}
