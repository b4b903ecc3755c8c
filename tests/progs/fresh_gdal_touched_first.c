/*
 * fresh_gdal_touched_first.c - the racy twin of fresh_gdal_create_clean.c:
 * the new mutex is published before its creator locks it, and another
 * thread takes it in between (while the creator holds the global mutex).
 *
 * The creator's first acquisition (global -> fresh#1) then could block:
 * another thread reached the lock and could hold it at that moment.  So
 * the dependency is recorded, and with user's fresh#1 -> global the cycle
 * is reported: user holds the new mutex and waits for global, the creator
 * holds global and waits for the new mutex.
 *
 * EXPECT: lock-order-inversion global_mutex 'create_mutex:*#1'
 */
#include "progs.h"

static pthread_mutex_t global_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t *published;

static __attribute__((noinline)) pthread_mutex_t *create_mutex(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    CHECK(m != NULL);
    OK(pthread_mutex_init(m, NULL));
    return m;
}

static void *touch(void *arg)
{
    OK(pthread_mutex_lock(published));
    OK(pthread_mutex_unlock(published));
    return arg;
}

static void *user(void *arg)
{
    OK(pthread_mutex_lock(published));
    OK(pthread_mutex_lock(&global_mutex));
    OK(pthread_mutex_unlock(&global_mutex));
    OK(pthread_mutex_unlock(published));
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&global_mutex));
    published = create_mutex(); /* published before its first lock */
    run_thread(touch, NULL);    /* another thread reaches it meanwhile */
    OK(pthread_mutex_lock(published));
    OK(pthread_mutex_unlock(published));
    OK(pthread_mutex_unlock(&global_mutex));
    run_thread(user, NULL);
    return 0;
}
