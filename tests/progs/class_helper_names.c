/*
 * class_helper_names.c - locks named through a helper, as pigz's: yarn's
 * new_lock() (a macro for new_lock_(), which allocates the lock, then
 * initialises its mutex and condition variable) is called by new_pool()
 * for pool->have and by get_space() for space->use.
 *
 * One thread holds pool->have while it takes space->use; later another
 * holds a space's use lock while it takes the pool's have lock, on the same
 * objects: an inversion between these two locks.  The report must say what
 * they are: named by the first site outside the helper (new_lock_ is a
 * lock-API wrapper: builtin_wrappers `new_lock*`), `new_pool:LINE#1` and
 * `get_space:LINE#1`, not `new_lock_:LINE from ...`.
 *
 * EXPECT: lock-order-inversion new_pool:*#1 get_space:*#1
 * EXPECT-STDERR: new_pool:{{line:pool_have}}#1
 * EXPECT-STDERR: get_space:{{line:space_use}}#1
 */
#include "progs.h"

typedef struct lock_s { pthread_mutex_t mutex; pthread_cond_t cond; long value; } lock;

__attribute__((noinline)) lock *new_lock_(long initial, char const *file, long line)
{
    lock *bolt = malloc(sizeof(*bolt));
    CHECK(bolt != NULL && file != NULL && line > 0);
    OK(pthread_mutex_init(&bolt->mutex, NULL));
    OK(pthread_cond_init(&bolt->cond, NULL));
    bolt->value = initial;
    return bolt;
}
#define new_lock(initial) new_lock_(initial, __FILE__, __LINE__)

static void possess(lock *bolt) { OK(pthread_mutex_lock(&bolt->mutex)); }
static void release(lock *bolt) { OK(pthread_mutex_unlock(&bolt->mutex)); }

struct pool { lock *have; int made; };
struct space { lock *use; struct pool *pool; };

static __attribute__((noinline)) struct pool *new_pool(void)
{
    struct pool *pool = calloc(1, sizeof(*pool));
    CHECK(pool != NULL);
    pool->have = new_lock(0); /* @line:pool_have */
    return pool;
}

static __attribute__((noinline)) struct space *get_space(struct pool *pool)
{
    struct space *space = calloc(1, sizeof(*space));
    CHECK(space != NULL);
    space->use = new_lock(1); /* @line:space_use */
    space->pool = pool;
    return space;
}

static void *compress_thread(void *arg)
{
    struct space *s = arg;
    possess(s->pool->have);
    possess(s->use); /* pool->have -> space->use */
    s->pool->made++;
    release(s->use);
    release(s->pool->have);
    return NULL;
}

static void *write_thread(void *arg)
{
    struct space *s = arg;
    possess(s->use);
    possess(s->pool->have); /* space->use -> pool->have */
    s->pool->made++;
    release(s->pool->have);
    release(s->use);
    return NULL;
}

int main(void)
{
    struct space *s = get_space(new_pool());
    run_thread(compress_thread, s);
    run_thread(write_thread, s);
    CHECK(s->pool->made == 2);
    return 0;
}
