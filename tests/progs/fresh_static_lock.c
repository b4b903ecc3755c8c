/*
 * fresh_static_lock.c - the GDAL creation pattern on a mutex that has no
 * init call: a static PTHREAD_MUTEX_INITIALIZER lock first locked under
 * the global mutex.  Any thread can reach a static lock at any time, so
 * even its first acquisition can block: global -> lazy and lazy -> global
 * is a deadlock when another thread runs the second order meanwhile.
 *
 * EXPECT: lock-order-inversion global_mutex lazy_mutex
 */
#include "progs.h"

static pthread_mutex_t global_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lazy_mutex = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    OK(pthread_mutex_lock(&global_mutex));
    OK(pthread_mutex_lock(&lazy_mutex)); /* its first acquisition */
    OK(pthread_mutex_unlock(&lazy_mutex));
    OK(pthread_mutex_unlock(&global_mutex));
    OK(pthread_mutex_lock(&lazy_mutex));
    OK(pthread_mutex_lock(&global_mutex));
    OK(pthread_mutex_unlock(&global_mutex));
    OK(pthread_mutex_unlock(&lazy_mutex));
    return 0;
}
