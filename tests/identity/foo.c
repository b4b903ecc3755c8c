/* foo.c - libfoo.a, linked into two test binaries (identity_test.py): its
 * locks must have the same class keys in both. */
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t foo_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t foo_b = PTHREAD_MUTEX_INITIALIZER;

struct foo {
    pthread_mutex_t lock;
};

__attribute__((noinline)) struct foo *foo_new(void)
{
    struct foo *f = calloc(1, sizeof(*f));
    pthread_mutex_init(&f->lock, NULL);
    return f;
}

__attribute__((noinline)) void foo_ab(struct foo *f)
{
    pthread_mutex_lock(&foo_a);
    pthread_mutex_lock(&foo_b);
    pthread_mutex_lock(&f->lock);
    pthread_mutex_unlock(&f->lock);
    pthread_mutex_unlock(&foo_b);
    pthread_mutex_unlock(&foo_a);
}

__attribute__((noinline)) void foo_ba(struct foo *f)
{
    pthread_mutex_lock(&foo_b);
    pthread_mutex_lock(&foo_a);
    pthread_mutex_lock(&f->lock);
    pthread_mutex_unlock(&f->lock);
    pthread_mutex_unlock(&foo_a);
    pthread_mutex_unlock(&foo_b);
}
