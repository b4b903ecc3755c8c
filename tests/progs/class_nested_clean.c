/*
 * class_nested_clean.c - timer-base migration in the style of the
 * kernel's timers_dead_cpu(): when a base goes offline, main moves its
 * timers to another base, locking the new base and then, annotated with
 * uld_lock_nested(old, 1), the old one.  base0 is migrated into base1,
 * later base1 into base0.  Both base locks are of one class (base_init).
 *
 * Without the annotation the instance graph has base1 -> base0 and
 * base0 -> base1 (see class_nested_missing.c).  The outer rule that makes
 * it safe: only main migrates, one migration at a time, and only out of a
 * base whose worker has exited, so nobody else can hold or wait for the
 * old lock.  uld_lock_nested() states that rule: the nested acquisition is
 * node (lock, 1), giving base1 -> base0/1 and base0 -> base1/1: no cycle.
 *
 * EXPECT: none
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
    uld_lock_nested(&old->lock, 1);
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
    run_thread(worker, &bases[0]); /* base0 goes offline */
    migrate(&bases[0], &bases[1]);
    run_thread(worker, &bases[1]); /* base1 goes offline */
    migrate(&bases[1], &bases[0]);
    CHECK(bases[0].timers == 6 && bases[1].timers == 0);
    return 0;
}
