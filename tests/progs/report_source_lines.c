/*
 * report_source_lines.c - a report says what the locks are in the program's
 * own words: under each acquisition site and init site the text report
 * shows that line of the source (read at report time, the source file is
 * where the debug info says), so the first screen of the report reads
 * `OK(pthread_mutex_lock(&space->use));` rather than only a function+offset.
 *
 * The pattern is pigz's: a pool's `have` lock and a space's `use` lock,
 * taken in both orders by two threads run one after the other: an
 * inversion (they would deadlock if run together).
 *
 * EXPECT: lock-order-inversion pool_new:*#1 space_new:*#1
 * EXPECT-STDERR: ^\s+\| OK\(pthread_mutex_init\(&pool->have, NULL\)\);$
 * EXPECT-STDERR: ^\s+\| OK\(pthread_mutex_init\(&space->use, NULL\)\);$
 * EXPECT-STDERR: in get_space\+0x[0-9a-f]+ \(\S+report_source_lines\.c:{{line:use}}\)\n\s+\| OK\(pthread_mutex_lock\(&space->use\)\);
 * EXPECT-STDERR: acquired at get_space\+0x[0-9a-f]+ \(\S+:{{line:have}}\)\n\s+\| OK\(pthread_mutex_lock\(&pool->have\)\);
 */
#include "progs.h"

struct pool {
    pthread_mutex_t have;
};

struct space {
    pthread_mutex_t use;
};

static struct pool *pool;
static struct space *space;

static __attribute__((noinline)) void pool_new(void)
{
    pool = malloc(sizeof(*pool));
    CHECK(pool != NULL);
    OK(pthread_mutex_init(&pool->have, NULL));
}

static __attribute__((noinline)) void space_new(void)
{
    space = malloc(sizeof(*space));
    CHECK(space != NULL);
    OK(pthread_mutex_init(&space->use, NULL));
}

/* Holding the pool, take a space from it. */
static __attribute__((noinline)) void get_space(void)
{
    OK(pthread_mutex_lock(&pool->have)); /* @line:have */
    OK(pthread_mutex_lock(&space->use)); /* @line:use */
    OK(pthread_mutex_unlock(&space->use));
    OK(pthread_mutex_unlock(&pool->have));
}

static void *compress_thread(void *arg)
{
    get_space();
    return arg;
}

/* Holding a space, return it to the pool. */
static void *write_thread(void *arg)
{
    OK(pthread_mutex_lock(&space->use));
    OK(pthread_mutex_lock(&pool->have));
    OK(pthread_mutex_unlock(&pool->have));
    OK(pthread_mutex_unlock(&space->use));
    return arg;
}

int main(void)
{
    pool_new();
    space_new();
    run_thread(compress_thread, NULL);
    run_thread(write_thread, NULL);
    OK(pthread_mutex_destroy(&pool->have));
    OK(pthread_mutex_destroy(&space->use));
    free(pool);
    free(space);
    return 0;
}
