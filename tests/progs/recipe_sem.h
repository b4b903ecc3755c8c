/*
 * recipe_sem.h - README recipe 3: a counting semaphore made of a mutex, a
 * condition variable and a counter (fio's fio_sem), annotated with the
 * public API.  The interposer sees the inner mutex and condvar, but the
 * "held" state is the counter: between down and up no pthread lock is
 * held, so without annotations a down/up pair taken in opposite orders by
 * two threads records nothing (fio's stat_sem / rusage_sem inversion,
 * which really hangs fio).  Shared by recipe_sem_*.c, which choose
 * RECIPE_ANNOTATE and RECIPE_INVERTED.
 *
 * Annotate a semaphore that is used as a lock (initialised to 1, up by the
 * thread that did the down): a plain signal, posted by another thread,
 * would be an unlock by a thread that holds nothing.
 */
#ifndef RECIPE_SEM_H
#define RECIPE_SEM_H

#include "progs.h"

#if !RECIPE_ANNOTATE
#define uld_lock_init(lock, name, flags) ((void)(lock), (void)(name), (void)(flags))
#define uld_acquire(lock, flags) ((void)0)
#define uld_release(lock) ((void)0)
#endif

/* The annotation key is the struct's address, so its first member must not
 * be a lock of its own (the inner mutex would be the same lock to the
 * validator): the counter comes first. */
struct csem {
    int value, waiters;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

static void csem_init(struct csem *s, int value, const char *name)
{
    OK(pthread_mutex_init(&s->lock, NULL));
    OK(pthread_cond_init(&s->cond, NULL));
    s->value = value;
    s->waiters = 0;
    uld_lock_init(s, name, 0); /* the semaphore itself is the lock */
}

static void csem_down(struct csem *s)
{
    uld_acquire(s, 0); /* before it can block */
    OK(pthread_mutex_lock(&s->lock));
    while (s->value == 0) {
        s->waiters++;
        OK(pthread_cond_wait(&s->cond, &s->lock));
        s->waiters--;
    }
    s->value--;
    OK(pthread_mutex_unlock(&s->lock));
}

static int csem_down_trylock(struct csem *s)
{
    OK(pthread_mutex_lock(&s->lock));
    int got = s->value > 0;
    if (got)
        s->value--;
    OK(pthread_mutex_unlock(&s->lock));
    if (got)
        uld_acquire(s, ULD_ACQUIRE_TRY); /* after success: no edge into it */
    return got;
}

static void csem_up(struct csem *s)
{
    uld_release(s);
    OK(pthread_mutex_lock(&s->lock));
    s->value++;
    if (s->waiters)
        OK(pthread_cond_signal(&s->cond));
    OK(pthread_mutex_unlock(&s->lock));
}

static struct csem stat_sem, rusage_sem;
static int stats, usage;

static void *stat_thread(void *arg) /* stat_sem -> rusage_sem */
{
    csem_down(&stat_sem);
    CHECK(!csem_down_trylock(&stat_sem)); /* taken: value 0 */
    csem_down(&rusage_sem);
    usage++;
    csem_up(&rusage_sem);
    stats++;
    csem_up(&stat_sem);
    return arg;
}

static void *backend(void *arg) /* rusage_sem -> stat_sem, or the same order */
{
    struct csem *first = RECIPE_INVERTED ? &rusage_sem : &stat_sem;
    struct csem *second = RECIPE_INVERTED ? &stat_sem : &rusage_sem;
    csem_down(first);
    csem_down(second);
    CHECK(stats == 1 && usage == 1);
    csem_up(second);
    csem_up(first);
    return arg;
}

int main(void)
{
    csem_init(&stat_sem, 1, "stat_sem");
    csem_init(&rusage_sem, 1, "rusage_sem");
    run_thread(stat_thread, NULL);
    run_thread(backend, NULL);
    return 0;
}

#endif
