/*
 * class_lazy_init_one_class.c - one lock initialised by one lazy-init
 * function that four functions call, as a Git library's attribute cache
 * (git_attr_cache__init() reached from four attribute calls): each
 * repository's cache lock is initialised by whichever call comes first.
 *
 * attr_get() takes cache->lock then repo->lock; attr_foreach(),
 * attr_add_macro() and attr_flush() take repo->lock then cache->lock.  Each
 * runs on its own repository, so no instance cycle; but run on one
 * repository the two orders deadlock: a class-order-inversion between the
 * cache-lock class and the repository-lock class.  The init call site in
 * the source is one line of attr_cache_init(), so that is one class, as in
 * the kernel; classed by the caller too it would be four classes, none
 * with a cycle, and the inversion would be missed (or, where each caller
 * had its own cycle, reported four times).  Exactly one report.
 *
 * EXPECT: class-order-inversion attr_cache_init:* repo_new:*
 */
#include "progs.h"

struct cache {
    pthread_mutex_t lock;
    int entries;
};
struct repo {
    pthread_mutex_t lock;
    struct cache *cache;
};

static __attribute__((noinline)) struct repo *repo_new(void)
{
    struct repo *r = calloc(1, sizeof(*r));
    CHECK(r != NULL);
    OK(pthread_mutex_init(&r->lock, NULL));
    return r;
}

/* lazy: the first attribute call on a repository builds its cache */
static __attribute__((noinline)) struct cache *attr_cache_init(struct repo *r)
{
    if (r->cache)
        return r->cache;
    struct cache *c = calloc(1, sizeof(*c));
    CHECK(c != NULL);
    OK(pthread_mutex_init(&c->lock, NULL));
    r->cache = c;
    return c;
}

static __attribute__((noinline)) void cache_then_repo(struct repo *r, struct cache *c)
{
    OK(pthread_mutex_lock(&c->lock));
    OK(pthread_mutex_lock(&r->lock));
    c->entries++;
    OK(pthread_mutex_unlock(&r->lock));
    OK(pthread_mutex_unlock(&c->lock));
}

static __attribute__((noinline)) void repo_then_cache(struct repo *r, struct cache *c)
{
    OK(pthread_mutex_lock(&r->lock));
    OK(pthread_mutex_lock(&c->lock));
    c->entries++;
    OK(pthread_mutex_unlock(&c->lock));
    OK(pthread_mutex_unlock(&r->lock));
}

static __attribute__((noinline)) void attr_get(struct repo *r) { cache_then_repo(r, attr_cache_init(r)); }
static __attribute__((noinline)) void attr_foreach(struct repo *r) { repo_then_cache(r, attr_cache_init(r)); }
static __attribute__((noinline)) void attr_add_macro(struct repo *r) { repo_then_cache(r, attr_cache_init(r)); }
static __attribute__((noinline)) void attr_flush(struct repo *r) { repo_then_cache(r, attr_cache_init(r)); }

static void *work(void *arg)
{
    struct repo **repos = arg;
    attr_get(repos[0]);
    attr_foreach(repos[1]);
    attr_add_macro(repos[2]);
    attr_flush(repos[3]);
    return NULL;
}

int main(void)
{
    struct repo *repos[4];
    for (int i = 0; i < 4; i++)
        repos[i] = repo_new();
    run_thread(work, repos);
    for (int i = 0; i < 4; i++)
        CHECK(repos[i]->cache && repos[i]->cache->entries == 1);
    return 0;
}
