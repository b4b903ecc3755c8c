/*
 * scale_200k_clean.c - 200000 locks created, initialised, each locked and
 * unlocked once, and destroyed.
 *
 * No lock is ever held with another: no edge, nothing to report.  This is
 * the cost of lock bookkeeping (instance and class tables, init/destroy
 * hooks) at a realistic scale for a big server; it must stay far from the
 * 10 s limit set here and must not run into any table limit.
 *
 * TIMEOUT: 10
 * EXPECT: none
 */
#include "progs.h"

#define COUNT 200000

int main(void)
{
    pthread_mutex_t *locks = calloc(COUNT, sizeof(*locks));
    CHECK(locks != NULL);
    for (int i = 0; i < COUNT; i++)
        OK(pthread_mutex_init(&locks[i], NULL));
    for (int i = 0; i < COUNT; i++) {
        OK(pthread_mutex_lock(&locks[i]));
        OK(pthread_mutex_unlock(&locks[i]));
    }
    for (int i = 0; i < COUNT; i++)
        OK(pthread_mutex_destroy(&locks[i]));
    free(locks);
    return 0;
}
