/*
 * tomb_churn_after.c - two locks destroyed while four threads churn through
 * tens of thousands of lock lifetimes (tomb_churn.h), then used again: one
 * use-after-destroy each, naming the victim and its destroy's line (the
 * rwlock's is known only from its tombstone; the mutex also carries glibc's
 * destroyed mark, whose lock fails with EINVAL).  Nothing in the churn is
 * reported.  Clean twin: tomb_churn_clean.c.
 *
 * EXPECT: use-after-destroy victim_rw
 * EXPECT: use-after-destroy victim_mu
 * EXPECT-STDERR: tomb_churn_after\.c:{{line:rw_destroy}}\b
 * EXPECT-STDERR: tomb_churn_after\.c:{{line:mu_destroy}}\b
 * TIMEOUT: 120
 */
#include "tomb_churn.h"

static void destroy_victims(void)
{
    OK(pthread_rwlock_destroy(&victim_rw)); /* @line:rw_destroy */
    OK(pthread_mutex_destroy(&victim_mu)); /* @line:mu_destroy */
}

int main(void)
{
    victims_init();
    churn(destroy_victims);
    OK(pthread_rwlock_rdlock(&victim_rw)); /* glibc's rwlock destroy changes nothing */
    OK(pthread_rwlock_unlock(&victim_rw));
    CHECK_RC(pthread_mutex_lock(&victim_mu), EINVAL);
    return 0;
}
