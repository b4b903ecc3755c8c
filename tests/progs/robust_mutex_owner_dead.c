/*
 * robust_mutex_owner_dead.c - a PTHREAD_MUTEX_ROBUST mutex whose owner
 * thread ends while holding it; the next locker gets EOWNERDEAD, calls
 * pthread_mutex_consistent() and carries on.
 *
 * This is the protocol robust mutexes exist for: the lock does not stay
 * locked forever (glibc hands it to the next locker, with EOWNERDEAD as
 * the notice that the protected state may need repair), so no thread can
 * hang on it, and the program handles the notice.  What the validator
 * should do, reasoning from what can deadlock (docs/reports.md:
 * exit-holding is about a thread ending "while holding locks", which for
 * any other lock means every later locker hangs):
 *   - no exit-holding for a robust mutex: its owner's death is a
 *     recoverable, announced event that the program handles, and a report
 *     would fire on every test of a recovery path;
 *   - the EOWNERDEAD return *is* an acquisition (the caller owns the mutex
 *     and must unlock it): the validator must count it as held, so the
 *     nested store_lock that follows is an ordinary robust_m -> store_lock
 *     edge and the unlock is by the owner (no unlock-not-held);
 *   - after the repair everything is ordinary: main takes robust_m ->
 *     store_lock too, one order, no cycle.
 * So: no report.  Return values (EOWNERDEAD once, then 0) and the repaired
 * state are checked.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t robust_m;
static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;
static int state = 1; /* robust_m protects it: 1 consistent, 0 being changed */

static void *dies_holding(void *arg)
{
    OK(pthread_mutex_lock(&robust_m));
    state = 0; /* ... and the owner is gone before it finishes */
    return arg;
}

static void *recovers(void *arg)
{
    CHECK_RC(pthread_mutex_lock(&robust_m), EOWNERDEAD); /* owned now */
    CHECK(state == 0);
    OK(pthread_mutex_lock(&store_lock)); /* robust_m -> store_lock */
    state = 1;
    OK(pthread_mutex_unlock(&store_lock));
    OK(pthread_mutex_consistent(&robust_m));
    OK(pthread_mutex_unlock(&robust_m));
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST));
    OK(pthread_mutex_init(&robust_m, &attr));
    OK(pthread_mutexattr_destroy(&attr));

    run_thread(dies_holding, NULL);
    run_thread(recovers, NULL);

    OK(pthread_mutex_lock(&robust_m)); /* consistent again: plain 0 */
    OK(pthread_mutex_lock(&store_lock));
    CHECK(state == 1);
    OK(pthread_mutex_unlock(&store_lock));
    OK(pthread_mutex_unlock(&robust_m));
    OK(pthread_mutex_destroy(&robust_m));
    return 0;
}
