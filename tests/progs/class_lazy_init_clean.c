/*
 * class_lazy_init_clean.c - clean twin of class_lazy_init_one_class.c:
 * the same lazily initialised cache lock reached from four callers, but
 * every caller takes cache->lock then repo->lock.  One order: no report,
 * although the cache locks are one class.
 *
 * EXPECT: none
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

static __attribute__((noinline)) void attr_get(struct repo *r) { cache_then_repo(r, attr_cache_init(r)); }
static __attribute__((noinline)) void attr_foreach(struct repo *r) { cache_then_repo(r, attr_cache_init(r)); }
static __attribute__((noinline)) void attr_add_macro(struct repo *r) { cache_then_repo(r, attr_cache_init(r)); }
static __attribute__((noinline)) void attr_flush(struct repo *r) { cache_then_repo(r, attr_cache_init(r)); }

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
