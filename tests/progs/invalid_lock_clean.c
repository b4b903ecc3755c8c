/*
 * invalid_lock_clean.c - the clean twin of invalid_lock.c: the struct is
 * copied while its mutex is unlocked, so the copy is an unlocked mutex
 * (all zero, what PTHREAD_MUTEX_INITIALIZER gives), and the heap block is
 * initialised with pthread_mutex_init before use.  Both are locked and
 * unlocked properly: real locks, used correctly.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

struct account {
    pthread_mutex_t lock;
    int balance;
};

static struct account live = {PTHREAD_MUTEX_INITIALIZER, 10};

int main(void)
{
    struct account *copy = malloc(sizeof(*copy));
    CHECK(copy);
    OK(pthread_mutex_lock(&live.lock));
    OK(pthread_mutex_unlock(&live.lock));
    memcpy(copy, &live, sizeof(*copy)); /* an unlocked mutex */
    OK(pthread_mutex_lock(&copy->lock));
    OK(pthread_mutex_unlock(&copy->lock));

    pthread_mutex_t *heap = malloc(sizeof(*heap));
    CHECK(heap);
    memset(heap, 0x01, sizeof(*heap));
    OK(pthread_mutex_init(heap, NULL));
    OK(pthread_mutex_lock(heap));
    OK(pthread_mutex_unlock(heap));
    OK(pthread_mutex_destroy(heap));
    free(heap);
    free(copy);
    return 0;
}
