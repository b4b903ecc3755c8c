/*
 * heap_default_names.c - default names of unannotated heap locks, both
 * kinds: queue->lock is initialised in queue_new(); stats->lock comes from
 * calloc (all-zero bytes are PTHREAD_MUTEX_INITIALIZER) and is never
 * passed to an init call, so it is first acquired in stats_add().
 *
 * pusher holds the queue lock while stats_add() takes the stats lock;
 * later reporter holds the stats lock (in stats_report) while it reads
 * the queue.  Run together they deadlock: an inversion.  Names
 * (docs/reports.md): <class>#<n>, the class being the init call site, else
 * the first acquisition site, so queue_new:LINE#1 and stats_add:LINE#1 -
 * not stats_report, which is not where the lock was first taken.
 *
 * EXPECT: lock-order-inversion queue_new:*#1 stats_add:*#1
 */
#include "progs.h"

struct queue {
    pthread_mutex_t lock;
    int len;
};

struct stats {
    pthread_mutex_t lock;
    long pushes;
};

static struct queue *queue;
static struct stats *stats;

static __attribute__((noinline)) struct queue *queue_new(void)
{
    struct queue *q = malloc(sizeof(*q));
    CHECK(q != NULL);
    OK(pthread_mutex_init(&q->lock, NULL));
    q->len = 0;
    return q;
}

static __attribute__((noinline)) void stats_add(struct stats *s)
{
    OK(pthread_mutex_lock(&s->lock));
    s->pushes++;
    OK(pthread_mutex_unlock(&s->lock));
}

static __attribute__((noinline)) long stats_report(struct stats *s, struct queue *q)
{
    OK(pthread_mutex_lock(&s->lock));
    OK(pthread_mutex_lock(&q->lock));
    long total = s->pushes + q->len;
    OK(pthread_mutex_unlock(&q->lock));
    OK(pthread_mutex_unlock(&s->lock));
    return total;
}

static void *pusher(void *arg)
{
    OK(pthread_mutex_lock(&queue->lock));
    queue->len++;
    stats_add(stats);
    OK(pthread_mutex_unlock(&queue->lock));
    return arg;
}

static void *reporter(void *arg)
{
    CHECK(stats_report(stats, queue) == 2);
    return arg;
}

int main(void)
{
    queue = queue_new();
    stats = calloc(1, sizeof(*stats));
    CHECK(stats != NULL);
    run_thread(pusher, NULL);
    run_thread(reporter, NULL);
    free(stats);
    OK(pthread_mutex_destroy(&queue->lock));
    free(queue);
    return 0;
}
