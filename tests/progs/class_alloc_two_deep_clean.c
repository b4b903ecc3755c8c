/*
 * class_alloc_two_deep_clean.c - every lock of an event library allocated
 * through one allocator two calls deep, as libevent's debug-lock mode does:
 * EVTHREAD_ALLOC_LOCK() -> evthreadimpl_lock_alloc_() -> (function pointer)
 * debug_lock_alloc() -> (function pointer) evthread_posix_lock_alloc() ->
 * pthread_mutex_init().  The event base's lock and a buffer's lock are
 * allocated at two different sites (event_base_new, evbuffer_new).
 *
 * One thread takes base->lock, the signal-handling lock, then a buffer's
 * lock, always in that order: no cycle, nothing can deadlock.  Classed by
 * the init site and its caller (both inside the allocator) all locks would
 * be one class and that nesting the class cycle L -> sig_lock -> L.  The
 * three allocator functions are lock-API wrappers (builtin_wrappers:
 * `*lock_alloc*`), so the classes are event_base_new's and evbuffer_new's
 * sites.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

struct lock_fns {
    void *(*alloc)(unsigned type);
};

static __attribute__((noinline)) void *evthread_posix_lock_alloc(unsigned type)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    CHECK(m != NULL && type == 0);
    OK(pthread_mutex_init(m, NULL));
    return m;
}

static struct lock_fns original_lock_fns = {evthread_posix_lock_alloc};

struct debug_lock {
    unsigned type, count;
    void *lock;
};

static __attribute__((noinline)) void *debug_lock_alloc(unsigned type)
{
    struct debug_lock *l = calloc(1, sizeof(*l));
    CHECK(l != NULL);
    l->type = type;
    l->lock = original_lock_fns.alloc(type);
    return l;
}

static struct lock_fns evthread_lock_fns = {debug_lock_alloc};

static __attribute__((noinline)) void *evthreadimpl_lock_alloc_(unsigned type)
{
    return evthread_lock_fns.alloc ? evthread_lock_fns.alloc(type) : NULL;
}

static void lock_it(void *l) { OK(pthread_mutex_lock(((struct debug_lock *)l)->lock)); }
static void unlock_it(void *l) { OK(pthread_mutex_unlock(((struct debug_lock *)l)->lock)); }

struct event_base { void *th_base_lock; int nactive; };
struct evbuffer { void *lock; int len; };
static pthread_mutex_t evsig_base_lock = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((noinline)) struct event_base *event_base_new(void)
{
    struct event_base *b = calloc(1, sizeof(*b));
    CHECK(b != NULL);
    b->th_base_lock = evthreadimpl_lock_alloc_(0);
    return b;
}

static __attribute__((noinline)) struct evbuffer *evbuffer_new(void)
{
    struct evbuffer *e = calloc(1, sizeof(*e));
    CHECK(e != NULL);
    e->lock = evthreadimpl_lock_alloc_(0);
    return e;
}

struct world { struct event_base *base; struct evbuffer *buf; };

static void *dispatch(void *arg)
{
    struct world *w = arg;
    lock_it(w->base->th_base_lock);
    OK(pthread_mutex_lock(&evsig_base_lock)); /* base lock -> evsig_base_lock */
    lock_it(w->buf->lock);                    /* evsig_base_lock -> buffer lock */
    w->buf->len++;
    w->base->nactive++;
    unlock_it(w->buf->lock);
    OK(pthread_mutex_unlock(&evsig_base_lock));
    unlock_it(w->base->th_base_lock);
    return NULL;
}

int main(void)
{
    struct world w = {event_base_new(), evbuffer_new()};
    run_thread(dispatch, &w);
    CHECK(w.buf->len == 1 && w.base->nactive == 1);
    return 0;
}
