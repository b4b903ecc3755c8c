/*
 * class_nested_missing.c - class_nested_clean.c without the
 * uld_lock_nested() annotation.
 *
 * The validator cannot know the "only out of an offline base" rule: it
 * sees base1 -> base0 and later base0 -> base1, two instances of one class
 * nested both ways, which is exactly what deadlocks if two migrations ever
 * run at once.  A lock-order-inversion on base0 and base1 (names from
 * uld_lock_set_name, no subclass suffix).
 *
 * EXPECT: lock-order-inversion base0 base1
 */
#include "progs.h"

struct base {
    pthread_mutex_t lock;
    int timers;
};

static struct base bases[2];

static __attribute__((noinline)) void base_init(struct base *b, const char *name)
{
    OK(pthread_mutex_init(&b->lock, NULL));
    uld_lock_set_name(&b->lock, name);
}

static void *worker(void *arg)
{
    struct base *b = arg;
    OK(pthread_mutex_lock(&b->lock));
    b->timers += 3;
    OK(pthread_mutex_unlock(&b->lock));
    return NULL;
}

static void migrate(struct base *old, struct base *new)
{
    OK(pthread_mutex_lock(&new->lock));
    OK(pthread_mutex_lock(&old->lock));
    new->timers += old->timers;
    old->timers = 0;
    OK(pthread_mutex_unlock(&old->lock));
    OK(pthread_mutex_unlock(&new->lock));
}

int main(void)
{
    base_init(&bases[0], "base0");
    base_init(&bases[1], "base1");
    run_thread(worker, &bases[0]);
    migrate(&bases[0], &bases[1]);
    run_thread(worker, &bases[1]);
    migrate(&bases[1], &bases[0]);
    CHECK(bases[0].timers == 6 && bases[1].timers == 0);
    return 0;
}
