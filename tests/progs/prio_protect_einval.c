/*
 * prio_protect_einval.c - a blocking lock that fails: a priority-protection
 * mutex whose ceiling (10) is below the calling thread's SCHED_FIFO
 * priority (20) returns EINVAL from pthread_mutex_lock.  The rounds after
 * the first take the fast path (the chains were validated); a fast path
 * that treated every mutex's blocking lock as unable to fail would skip the
 * result, keep the failed acquisition on the held stack, and report the
 * thread as ending with prio_lock held.  Clean: nothing to report.  Raising the priority needs CAP_SYS_NICE (or
 * an rtprio limit): without it the program says so and is skipped.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t prio_lock;

static void *rounds(void *arg)
{
    int policy;
    struct sched_param old, high = {.sched_priority = 20};
    OK(pthread_getschedparam(pthread_self(), &policy, &old));
    int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &high);
    if (rc == EPERM) {
        fprintf(stderr, "SKIP: SCHED_FIFO not permitted here (%s)\n", strerror(rc));
        exit(77);
    }
    OK(rc);
    for (int i = 0; i < 3; i++) {
        CHECK_RC(pthread_mutex_lock(&prio_lock), EINVAL);
        OK(pthread_mutex_lock(&outer));
        CHECK_RC(pthread_mutex_lock(&prio_lock), EINVAL);
        OK(pthread_mutex_unlock(&outer));
    }
    OK(pthread_setschedparam(pthread_self(), policy, &old));
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_PROTECT));
    OK(pthread_mutexattr_setprioceiling(&attr, 10));
    OK(pthread_mutex_init(&prio_lock, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    run_thread(rounds, NULL);
    OK(pthread_mutex_destroy(&prio_lock));
    return 0;
}
