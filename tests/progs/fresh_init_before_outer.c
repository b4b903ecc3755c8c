/*
 * fresh_init_before_outer.c - a lock initialised with nothing held, then
 * first locked under another lock (TSan's deadlock tests build every lock
 * up front this way, then take them in both orders).
 *
 * The rule for fresh locks only drops the dependencies from the locks held
 * since the init: here outer was taken after the init, so outer -> inner
 * is an ordering the code chose, recorded as usual, and with
 * inner -> outer it is a cycle.
 *
 * EXPECT: lock-order-inversion outer inner
 */
#include "progs.h"

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    pthread_mutex_t *inner = malloc(sizeof(*inner));
    CHECK(inner != NULL);
    OK(pthread_mutex_init(inner, NULL));
    uld_lock_set_name(inner, "inner");
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(inner)); /* its first acquisition */
    OK(pthread_mutex_unlock(inner));
    OK(pthread_mutex_unlock(&outer));
    OK(pthread_mutex_lock(inner));
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_unlock(&outer));
    OK(pthread_mutex_unlock(inner));
    OK(pthread_mutex_destroy(inner));
    free(inner);
    return 0;
}
