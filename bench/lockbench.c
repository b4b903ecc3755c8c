/*
 * lockbench - cost of acquire+release pairs, the measure of a lock
 * validator's overhead.  Each thread repeatedly takes `depth` locks in
 * ascending order and releases them in reverse; with more locks than the
 * depth, iterations slide a window over the locks so that several lock
 * chains are exercised.  Locks are private to each thread, or shared by all.
 *
 *   lockbench [--threads N] [--depth D] [--locks L] [--kind K] [--shared]
 *             [--iters N] [--churn stack|heap] [--api pthread|c11]
 *   K: mutex | rwlock-read | rwlock-write | spin | sem | sem-try | mutex-signal | rwlock-signal
 *      | init-destroy | init-lock-destroy
 *
 * --api c11 runs the mutex loop through <threads.h> (mtx_lock/mtx_unlock).
 * The lifecycle kinds measure a lock's whole life instead of a pair: each
 * iteration initialises a private mutex, optionally locks and unlocks it
 * once, and destroys it (the per-request-object pattern); their "pair" is
 * one such lifetime.
 *
 * --churn: a lock per request instead: each iteration initialises a lock,
 * takes and releases it once and destroys it, on the stack (the same
 * address every time) or in a malloc'd object freed each time ("pairs" are
 * then these cycles).
 *
 * Prints one line: the configuration, ns per acquire+release pair (per
 * thread), aggregate Mpairs/s, and peak RSS.
 */
#define _GNU_SOURCE
#include "measure.h"

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

enum kind {
    K_MUTEX, K_RWREAD, K_RWWRITE, K_SPIN, K_SEM, K_SEMTRY, K_SIGNAL, K_RWSIGNAL, K_INIT_DESTROY,
    K_INIT_LOCK_DESTROY
};
#define NKINDS 10
static const char *const kind_names[NKINDS] = {"mutex", "rwlock-read", "rwlock-write", "spin",
                                               "sem", "sem-try", "mutex-signal", "rwlock-signal",
                                               "init-destroy", "init-lock-destroy"};
static const char *const churn_names[] = {"", " churn=stack", " churn=heap"};

union lock {
    pthread_mutex_t m;
    pthread_rwlock_t rw;
    pthread_spinlock_t s;
    sem_t sem;
    mtx_t c11;
    char pad[64]; /* one cache line each: no false sharing between private locks */
};

struct config {
    int threads, depth, locks, shared, c11, churn; /* churn: 0 off, 1 stack, 2 heap */
    enum kind kind;
    long iters;
};

static struct config cfg = {.threads = 1, .depth = 4, .locks = 4, .kind = K_MUTEX, .iters = 2000000};
static union lock *all_locks;
static pthread_barrier_t start_line;

static void lock_init(union lock *l)
{
    switch (cfg.kind) {
    case K_MUTEX:
        if (cfg.c11)
            mtx_init(&l->c11, mtx_plain);
        else
            pthread_mutex_init(&l->m, NULL);
        break;
    case K_SIGNAL:
        pthread_mutex_init(&l->m, NULL);
        break;
    case K_RWREAD:
    case K_RWWRITE:
    case K_RWSIGNAL:
        pthread_rwlock_init(&l->rw, NULL);
        break;
    case K_SPIN:
        pthread_spin_init(&l->s, PTHREAD_PROCESS_PRIVATE);
        break;
    case K_SEM:
    case K_SEMTRY:
        sem_init(&l->sem, 0, 1);
        break;
    case K_INIT_DESTROY:
    case K_INIT_LOCK_DESTROY:
        break; /* each iteration makes its own */
    }
}

/* One loop per kind, so the hot path has no dispatch the validator would hide behind. */
#define WORKER_LOOP(name, ACQ, REL)                                                 \
    static void name(union lock *mine, long iters, int depth, int windows)         \
    {                                                                              \
        for (long i = 0; i < iters; i++) {                                         \
            union lock *w = mine + (windows > 1 ? i % windows : 0);                \
            for (int d = 0; d < depth; d++)                                        \
                ACQ(&w[d]);                                                        \
            for (int d = depth - 1; d >= 0; d--)                                   \
                REL(&w[d]);                                                        \
        }                                                                          \
    }

#define MUTEX_ACQ(l) pthread_mutex_lock(&(l)->m)
#define MUTEX_REL(l) pthread_mutex_unlock(&(l)->m)
#define RD_ACQ(l) pthread_rwlock_rdlock(&(l)->rw)
#define WR_ACQ(l) pthread_rwlock_wrlock(&(l)->rw)
#define RW_REL(l) pthread_rwlock_unlock(&(l)->rw)
#define SPIN_ACQ(l) pthread_spin_lock(&(l)->s)
#define SPIN_REL(l) pthread_spin_unlock(&(l)->s)
#define SEM_ACQ(l) sem_wait(&(l)->sem)
#define SEM_REL(l) sem_post(&(l)->sem)
#define SEMTRY_ACQ(l) sem_trywait(&(l)->sem) /* private: never busy */
/* a condvar signalled, with no waiter, under each mutex: a producer's notify */
static __thread pthread_cond_t notify = PTHREAD_COND_INITIALIZER;
#define SIGNAL_ACQ(l) (pthread_mutex_lock(&(l)->m), pthread_cond_signal(&notify))
#define C11_ACQ(l) mtx_lock(&(l)->c11)
#define C11_REL(l) mtx_unlock(&(l)->c11)

WORKER_LOOP(loop_mutex, MUTEX_ACQ, MUTEX_REL)
WORKER_LOOP(loop_rwread, RD_ACQ, RW_REL)
WORKER_LOOP(loop_rwwrite, WR_ACQ, RW_REL)
WORKER_LOOP(loop_spin, SPIN_ACQ, SPIN_REL)
WORKER_LOOP(loop_sem, SEM_ACQ, SEM_REL)
WORKER_LOOP(loop_semtry, SEMTRY_ACQ, SEM_REL)
WORKER_LOOP(loop_signal, SIGNAL_ACQ, MUTEX_REL)
/* the same under rwlocks taken for writing (acquisitions that may fail) */
#define RWSIGNAL_ACQ(l) (pthread_rwlock_wrlock(&(l)->rw), pthread_cond_signal(&notify))
WORKER_LOOP(loop_rwsignal, RWSIGNAL_ACQ, RW_REL)
WORKER_LOOP(loop_c11, C11_ACQ, C11_REL)

/* A lock's whole life, `depth` mutexes per iteration (--depth 1: one lifetime each). */
#define LIFECYCLE_LOOP(name, USE)                                                  \
    static void name(union lock *mine, long iters, int depth, int windows)         \
    {                                                                              \
        (void)windows;                                                             \
        for (long i = 0; i < iters; i++) {                                         \
            for (int d = 0; d < depth; d++) {                                      \
                pthread_mutex_init(&mine[d].m, NULL);                              \
                USE(&mine[d]);                                                     \
                pthread_mutex_destroy(&mine[d].m);                                 \
            }                                                                      \
        }                                                                          \
    }

#define NO_USE(l) ((void)(l))
#define LOCK_UNLOCK(l) (pthread_mutex_lock(&(l)->m), pthread_mutex_unlock(&(l)->m))
LIFECYCLE_LOOP(loop_init_destroy, NO_USE)
LIFECYCLE_LOOP(loop_init_lock_destroy, LOCK_UNLOCK)

static void lock_destroy(union lock *l)
{
    switch (cfg.kind) {
    case K_MUTEX:
    case K_SIGNAL:
        pthread_mutex_destroy(&l->m);
        break;
    case K_RWREAD:
    case K_RWWRITE:
    case K_RWSIGNAL:
        pthread_rwlock_destroy(&l->rw);
        break;
    case K_SPIN:
        pthread_spin_destroy(&l->s);
        break;
    case K_SEM:
    case K_SEMTRY:
        sem_destroy(&l->sem);
        break;
    case K_INIT_DESTROY: /* their own loops: --churn refused for them */
    case K_INIT_LOCK_DESTROY:
        break;
    }
}

static void churn_loop(long iters)
{
    static void (*const loops[])(union lock *, long, int, int) = {
        loop_mutex, loop_rwread, loop_rwwrite, loop_spin, loop_sem, loop_semtry, loop_signal,
        loop_rwsignal};
    for (long i = 0; i < iters; i++) {
        union lock local, *l = cfg.churn == 2 ? malloc(sizeof(*l)) : &local;
        if (!l)
            exit(1);
        lock_init(l);
        loops[cfg.kind](l, 1, 1, 1);
        lock_destroy(l);
        __asm__ volatile("" : : "r"(l) : "memory"); /* the stack lock stays in memory */
        if (l != &local)
            free(l);
    }
}

static void *worker(void *arg)
{
    static void (*const loops[NKINDS])(union lock *, long, int, int) = {
        loop_mutex, loop_rwread, loop_rwwrite,      loop_spin,
        loop_sem,   loop_semtry, loop_signal,       loop_rwsignal,
        loop_init_destroy, loop_init_lock_destroy};
    long id = (long)arg;
    union lock *mine = all_locks + (cfg.shared ? 0 : id * cfg.locks);
    pthread_barrier_wait(&start_line);
    if (cfg.churn) {
        churn_loop(cfg.iters);
        return NULL;
    }
    (cfg.c11 && cfg.kind == K_MUTEX ? loop_c11 : loops[cfg.kind])(mine, cfg.iters, cfg.depth,
                                                                  cfg.locks - cfg.depth + 1);
    return NULL;
}

static void parse(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--shared"))
            cfg.shared = 1;
        else if (v && !strcmp(a, "--threads"))
            cfg.threads = atoi(argv[++i]);
        else if (v && !strcmp(a, "--depth"))
            cfg.depth = atoi(argv[++i]);
        else if (v && !strcmp(a, "--locks"))
            cfg.locks = atoi(argv[++i]);
        else if (v && !strcmp(a, "--churn") && (!strcmp(v, "stack") || !strcmp(v, "heap")))
            cfg.churn = !strcmp(argv[++i], "stack") ? 1 : 2;
        else if (v && !strcmp(a, "--iters"))
            cfg.iters = atol(argv[++i]);
        else if (v && !strcmp(a, "--api") && (!strcmp(v, "pthread") || !strcmp(v, "c11")))
            cfg.c11 = !strcmp(argv[++i], "c11");
        else if (v && !strcmp(a, "--kind")) {
            int k;
            for (k = 0; k < NKINDS && strcmp(v, kind_names[k]); k++)
                ;
            if (k == NKINDS) {
                fprintf(stderr, "lockbench: unknown kind '%s'\n", v);
                exit(2);
            }
            cfg.kind = (enum kind)k;
            i++;
        } else {
            fprintf(stderr, "usage: lockbench [--threads N] [--depth D] [--locks L] "
                            "[--kind mutex|rwlock-read|rwlock-write|spin|sem|sem-try|mutex-signal|rwlock-signal|"
                            "init-destroy|"
                            "init-lock-destroy] [--shared] [--iters N] [--churn stack|heap] "
                            "[--api pthread|c11]\n");
            exit(2);
        }
    }
    if (cfg.threads < 1 || cfg.depth < 1 || cfg.iters < 1)
        exit(2);
    if (cfg.locks < cfg.depth)
        cfg.locks = cfg.depth;
    if (cfg.c11 && cfg.kind != K_MUTEX) {
        fprintf(stderr, "lockbench: --api c11 applies to --kind mutex only\n");
        exit(2);
    }
    if (cfg.churn && cfg.kind >= K_INIT_DESTROY) {
        fprintf(stderr, "lockbench: --churn applies to the lock kinds, not the lifecycle ones\n");
        exit(2);
    }
}

int main(int argc, char **argv)
{
    parse(argc, argv);
    int nlocks = cfg.shared ? cfg.locks : cfg.locks * cfg.threads;
    if (posix_memalign((void **)&all_locks, 64, (size_t)nlocks * sizeof(union lock)))
        return 1;
    for (int i = 0; i < nlocks; i++)
        lock_init(&all_locks[i]);
    pthread_t *t = calloc((size_t)cfg.threads, sizeof(*t));
    pthread_barrier_init(&start_line, NULL, (unsigned)cfg.threads + 1);
    for (long i = 0; i < cfg.threads; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    /* the clock starts before the release: with more threads than cores, this
     * thread may run again only after the workers have finished */
    double t0 = now();
    pthread_barrier_wait(&start_line);
    for (int i = 0; i < cfg.threads; i++)
        pthread_join(t[i], NULL);
    double elapsed = now() - t0;
    double pairs = (double)cfg.iters * (cfg.churn ? 1 : cfg.depth);
    printf("kind=%s%s%s threads=%d depth=%d locks=%d shared=%d ns_per_pair=%.2f "
           "mpairs_per_s=%.2f peak_rss_kb=%ld\n",
           kind_names[cfg.kind], churn_names[cfg.churn], cfg.c11 ? " api=c11" : "", cfg.threads,
           cfg.depth, cfg.locks, cfg.shared, elapsed * 1e9 / pairs,
           pairs * cfg.threads / elapsed / 1e6, peak_rss_kb());
    free(t);
    free(all_locks);
    return 0;
}
