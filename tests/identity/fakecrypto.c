/* fakecrypto.c - a stripped library shaped like libcrypto and libgnutls
 * (identity_test.py): every lock made by one exported allocator,
 * CRYPTO_THREAD_lock_new(), called from internal constructors, and a static
 * rwlock.  Stripped, only exported names remain. */
#include <pthread.h>
#include <stdlib.h>

typedef pthread_rwlock_t CRYPTO_RWLOCK;

CRYPTO_RWLOCK *CRYPTO_THREAD_lock_new(void)
{
    CRYPTO_RWLOCK *l = malloc(sizeof(*l));
    if (l && pthread_rwlock_init(l, NULL) != 0) {
        free(l);
        return NULL;
    }
    return l;
}

static pthread_rwlock_t global_rwlock = PTHREAD_RWLOCK_INITIALIZER;

struct ctx { CRYPTO_RWLOCK *lock; };
struct store { CRYPTO_RWLOCK *lock; };

__attribute__((noinline)) static struct ctx *ctx_new(void)
{
    struct ctx *c = calloc(1, sizeof(*c));
    c->lock = CRYPTO_THREAD_lock_new();
    return c;
}

__attribute__((noinline)) static struct store *store_new(void)
{
    struct store *s = calloc(1, sizeof(*s));
    s->lock = CRYPTO_THREAD_lock_new();
    return s;
}

void fc_make(struct ctx **c, struct store **s)
{
    *c = ctx_new();
    *s = store_new();
}

void fc_ctx_then_store(struct ctx *c, struct store *s)
{
    pthread_rwlock_wrlock(&global_rwlock);
    pthread_rwlock_wrlock(c->lock);
    pthread_rwlock_wrlock(s->lock);
    pthread_rwlock_unlock(s->lock);
    pthread_rwlock_unlock(c->lock);
    pthread_rwlock_unlock(&global_rwlock);
}

void fc_store_then_ctx(struct ctx *c, struct store *s)
{
    pthread_rwlock_wrlock(s->lock);
    pthread_rwlock_wrlock(c->lock);
    pthread_rwlock_wrlock(&global_rwlock);
    pthread_rwlock_unlock(&global_rwlock);
    pthread_rwlock_unlock(c->lock);
    pthread_rwlock_unlock(s->lock);
}
