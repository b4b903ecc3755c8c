/* ident_other.c - the helper file of ident_main.c; identity_test.py adds an
 * unrelated function at its top in the second build. */
#include <pthread.h>
#include <stdlib.h>

struct account {
    pthread_mutex_t lock;
    long balance;
};

__attribute__((noinline)) struct account *account_new(void)
{
    struct account *a = calloc(1, sizeof(*a));
    pthread_mutex_init(&a->lock, NULL);
    return a;
}

__attribute__((noinline)) void account_lock(struct account *a)
{
    pthread_mutex_lock(&a->lock);
}

__attribute__((noinline)) void account_unlock(struct account *a)
{
    pthread_mutex_unlock(&a->lock);
}
