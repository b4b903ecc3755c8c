/*
 * tomb_churn_clean.c - tomb_churn_after.c with the victims initialised
 * again after their destroy: new lifetimes, nothing used after destroy, no
 * report (the churn itself holds every lock in one order).
 *
 * EXPECT: none
 * TIMEOUT: 120
 */
#include "tomb_churn.h"

static void destroy_victims(void)
{
    OK(pthread_rwlock_destroy(&victim_rw));
    OK(pthread_mutex_destroy(&victim_mu));
}

int main(void)
{
    victims_init();
    churn(destroy_victims);
    victims_init();
    OK(pthread_rwlock_destroy(&victim_rw));
    OK(pthread_mutex_destroy(&victim_mu));
    return 0;
}
