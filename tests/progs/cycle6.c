/*
 * cycle6.c - a ring of six locks named with uld_lock_set_name():
 * ring0 -> ring1 -> ... -> ring5 -> ring0, one edge per thread.
 *
 * The locks live in one static array, so without names they would be
 * "ring+0x28" and the like; uld_lock_set_name() takes precedence over the
 * symbol.  The last edge closes the only cycle, which has all six locks.
 *
 * EXPECT: lock-order-inversion ring0 ring1 ring2 ring3 ring4 ring5
 */
#include "progs.h"

#define N 6
static pthread_mutex_t ring[N] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
};

static void *nest(void *arg)
{
    int i = (int)(long)arg;
    OK(pthread_mutex_lock(&ring[i]));
    OK(pthread_mutex_lock(&ring[(i + 1) % N]));
    OK(pthread_mutex_unlock(&ring[(i + 1) % N]));
    OK(pthread_mutex_unlock(&ring[i]));
    return NULL;
}

int main(void)
{
    static const char *names[N] = {"ring0", "ring1", "ring2", "ring3", "ring4", "ring5"};
    for (int i = 0; i < N; i++)
        uld_lock_set_name(&ring[i], names[i]);
    for (long i = 0; i < N; i++)
        run_thread(nest, (void *)i);
    return 0;
}
