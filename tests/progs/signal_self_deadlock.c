/*
 * signal_self_deadlock.c - the real thing: the main thread holds
 * stats_lock when SIGUSR1 arrives, and the handler (installed with
 * signal()) locks stats_lock.
 *
 * The handler runs on the thread that holds the lock, which cannot
 * release it until the handler returns: with pthread_mutex_lock the
 * thread hangs forever.  Here the handler uses pthread_mutex_timedlock
 * with a 50 ms timeout, so it gets ETIMEDOUT (a normal mutex does not
 * know its owner) and the run goes on.  Two reports, both justified:
 *  - self-deadlock stats_lock: the handler's timed lock of a
 *    non-recursive mutex its own thread already holds (a timed lock is a
 *    blocking lock, as in self_timedlock.c);
 *  - signal-unsafe-lock stats_lock: the cause, a lock taken in a SIGUSR1
 *    handler and held where SIGUSR1 is not blocked.  It is a separate
 *    rule and would be reported even had the signal come at a harmless
 *    moment (signal_unsafe_lock.c).
 * Nothing else: the failed timed lock leaves one hold, which main
 * releases.
 *
 * EXPECT: self-deadlock stats_lock
 * EXPECT: signal-unsafe-lock stats_lock
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled, timed_out;

static void on_usr1(int sig)
{
    (void)sig;
    struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
    int rc = pthread_mutex_timedlock(&stats_lock, &deadline);
    if (rc == 0)
        OK(pthread_mutex_unlock(&stats_lock));
    else
        timed_out = (rc == ETIMEDOUT);
    handled++;
}

int main(void)
{
    CHECK(signal(SIGUSR1, on_usr1) == SIG_DFL);
    struct sigaction old;
    OK(sigaction(SIGUSR1, NULL, &old)); /* signal() installed it, BSD style */
    CHECK(old.sa_handler == on_usr1);
    CHECK(old.sa_flags & SA_RESTART);
    CHECK(sigismember(&old.sa_mask, SIGUSR1) == 1);

    OK(pthread_mutex_lock(&stats_lock));
    OK(raise(SIGUSR1)); /* the handler waits for its own thread's lock */
    CHECK(handled == 1 && timed_out == 1);
    OK(pthread_mutex_unlock(&stats_lock));
    return 0;
}
