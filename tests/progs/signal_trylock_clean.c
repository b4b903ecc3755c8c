/*
 * signal_trylock_clean.c - the SIGUSR1 handler only *tries* stats_lock
 * (and counts a dropped sample when it is busy); normal context takes it
 * with pthread_mutex_lock, SIGUSR1 unblocked.
 *
 * A trylock cannot block, so a handler that interrupts the holder just
 * fails to get the lock: no deadlock.  Both cases run here: the signal is
 * raised once while the thread holds stats_lock (the trylock fails with
 * EBUSY: a normal mutex does not know its owner) and once while it does
 * not (the trylock succeeds).  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled, dropped;
static long stats;

static void on_usr1(int sig)
{
    (void)sig;
    int rc = pthread_mutex_trylock(&stats_lock);
    if (rc == 0) {
        stats++;
        OK(pthread_mutex_unlock(&stats_lock));
        handled++;
    } else {
        CHECK(rc == EBUSY);
        dropped++;
    }
}

int main(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    OK(sigaction(SIGUSR1, &act, NULL));

    OK(pthread_mutex_lock(&stats_lock));
    stats++;
    OK(raise(SIGUSR1)); /* interrupts the holder: the trylock fails */
    OK(pthread_mutex_unlock(&stats_lock));
    CHECK(dropped == 1 && handled == 0);

    OK(raise(SIGUSR1)); /* not held: the trylock succeeds */
    CHECK(dropped == 1 && handled == 1 && stats == 2);
    return 0;
}
