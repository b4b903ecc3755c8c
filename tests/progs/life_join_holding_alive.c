/*
 * life_join_holding_alive.c - main holds a per-request lock and joins a
 * worker that took that lock exactly once, alone, and is still running
 * (asleep) when the join starts.  The worker's need of the lock was only
 * noted in its own list (no graph edge, no global lock); the join made
 * holding locks turns the list into edges before its search, so this is
 * the same wait-for-cycle as join_holding.c, with the worker's stack.
 *
 * EXPECT: wait-for-cycle obj_new:*#2 'thread T2'
 * EXPECT-STDERR: (?s)\[wait-for-cycle\].*?worker\+[^\n]*life_join_holding_alive\.c:{{line:take}}\)
 */
#include "progs.h"

#include <unistd.h>

struct obj {
    pthread_mutex_t lock;
    int n;
};

static pthread_barrier_t took;

static __attribute__((noinline)) struct obj *obj_new(void)
{
    struct obj *o = calloc(1, sizeof(*o));
    CHECK(o != NULL);
    OK(pthread_mutex_init(&o->lock, NULL));
    return o;
}

static void *worker(void *arg)
{
    struct obj *o = arg;
    OK(pthread_mutex_lock(&o->lock)); /* @line:take */
    o->n++;
    OK(pthread_mutex_unlock(&o->lock));
    pthread_barrier_wait(&took);
    usleep(300 * 1000); /* still running while main joins */
    return NULL;
}

int main(void)
{
    OK(pthread_barrier_init(&took, NULL, 2));
    struct obj *first = obj_new(), *o = obj_new();
    pthread_t t = spawn_thread(worker, o);
    pthread_barrier_wait(&took);
    OK(pthread_mutex_lock(&o->lock));
    join_thread(t);
    OK(pthread_mutex_unlock(&o->lock));
    CHECK(o->n == 1);
    OK(pthread_mutex_destroy(&o->lock));
    OK(pthread_mutex_destroy(&first->lock));
    free(o);
    free(first);
    return 0;
}
