/*
 * class_alloc_pool_clean.c - a SIP stack where every mutex comes from one
 * creation function, as pjproject's: pj_mutex_create_recursive() ->
 * pj_mutex_create() (pool allocation) -> init_mutex() (attributes, type,
 * name) -> pthread_mutex_init().  The endpoint's mutex, the timer heap's
 * lock and the I/O queue's lock are created at three sites.
 *
 * The endpoint thread takes endpt->mutex, the pool factory's static lock,
 * then the I/O queue's lock, always in that order: no cycle.  Classed
 * inside init_mutex (site plus caller, pj_mutex_create) the whole program
 * would be one class and this nesting the class cycle
 * M -> pool_factory_lock -> M.  The creation chain is lock-API wrappers (builtin_wrappers:
 * `*mutex_create*`, `init_mutex*`), so the three mutexes are three classes
 * named by their creators.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

typedef struct pj_mutex_t { pthread_mutex_t mutex; char obj_name[32]; int type; } pj_mutex_t;
enum { PJ_MUTEX_SIMPLE, PJ_MUTEX_RECURSE };

static __attribute__((noinline)) int init_mutex(pj_mutex_t *m, const char *name, int type)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, type == PJ_MUTEX_RECURSE ? PTHREAD_MUTEX_RECURSIVE
                                                                 : PTHREAD_MUTEX_NORMAL));
    int rc = pthread_mutex_init(&m->mutex, &attr);
    OK(pthread_mutexattr_destroy(&attr));
    snprintf(m->obj_name, sizeof(m->obj_name), "%s", name);
    m->type = type;
    return rc;
}

__attribute__((noinline)) int pj_mutex_create(const char *name, int type, pj_mutex_t **out)
{
    pj_mutex_t *m = calloc(1, sizeof(*m)); /* pj_pool_alloc */
    CHECK(m != NULL);
    if (init_mutex(m, name, type) != 0)
        return -1;
    *out = m;
    return 0;
}

__attribute__((noinline)) int pj_mutex_create_recursive(const char *name, pj_mutex_t **out)
{
    return pj_mutex_create(name, PJ_MUTEX_RECURSE, out);
}

static void pj_mutex_lock(pj_mutex_t *m) { OK(pthread_mutex_lock(&m->mutex)); }
static void pj_mutex_unlock(pj_mutex_t *m) { OK(pthread_mutex_unlock(&m->mutex)); }

struct endpt { pj_mutex_t *mutex; };
struct timer_heap { pj_mutex_t *lock; int count; };
struct ioqueue { pj_mutex_t *lock; int pending; };

static __attribute__((noinline)) struct endpt *pjsip_endpt_create(void)
{
    struct endpt *e = calloc(1, sizeof(*e));
    CHECK(e != NULL && pj_mutex_create_recursive("endpt", &e->mutex) == 0);
    return e;
}

static __attribute__((noinline)) struct timer_heap *pj_timer_heap_create(void)
{
    struct timer_heap *t = calloc(1, sizeof(*t));
    CHECK(t != NULL && pj_mutex_create("timer%p", PJ_MUTEX_SIMPLE, &t->lock) == 0);
    return t;
}

static __attribute__((noinline)) struct ioqueue *pj_ioqueue_create(void)
{
    struct ioqueue *q = calloc(1, sizeof(*q));
    CHECK(q != NULL && pj_mutex_create_recursive("ioq%p", &q->lock) == 0);
    return q;
}

static pthread_mutex_t pool_factory_lock = PTHREAD_MUTEX_INITIALIZER;
struct stack { struct endpt *e; struct timer_heap *t; struct ioqueue *q; };

static void *handle_events(void *arg)
{
    struct stack *s = arg;
    pj_mutex_lock(s->e->mutex);
    OK(pthread_mutex_lock(&pool_factory_lock)); /* endpt -> pool_factory_lock */
    pj_mutex_lock(s->q->lock);                  /* pool_factory_lock -> ioqueue */
    pj_mutex_lock(s->t->lock);                  /* ioqueue -> timer heap */
    s->t->count++;
    s->q->pending++;
    pj_mutex_unlock(s->t->lock);
    pj_mutex_unlock(s->q->lock);
    OK(pthread_mutex_unlock(&pool_factory_lock));
    pj_mutex_unlock(s->e->mutex);
    return NULL;
}

int main(void)
{
    struct stack s = {pjsip_endpt_create(), pj_timer_heap_create(), pj_ioqueue_create()};
    run_thread(handle_events, &s);
    CHECK(s.t->count == 1 && s.q->pending == 1);
    return 0;
}
