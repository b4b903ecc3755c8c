/*
 * cond_timeout_clean.c - pthread_cond_timedwait (CLOCK_REALTIME) and
 * pthread_cond_clockwait (CLOCK_MONOTONIC) that time out, 20 ms each,
 * nobody signalling.
 *
 * On ETIMEDOUT the mutex is held again, exactly as after a wakeup: the
 * following unlock is correct (no unlock-not-held), the thread exits
 * holding nothing.  lock_m is the only lock: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    struct timespec deadline = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&never, &lock_m, &deadline), ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_m));

    OK(pthread_mutex_lock(&lock_m));
    deadline = in_ms(CLOCK_MONOTONIC, 20);
    CHECK_RC(pthread_cond_clockwait(&never, &lock_m, CLOCK_MONOTONIC, &deadline), ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

int main(void)
{
    run_thread(waiter, NULL);
    return 0;
}
