/*
 * signal_blocked_clean.c - clean twin of signal_unsafe_lock.c: the
 * SIGUSR1 handler takes stats_lock, and normal context blocks SIGUSR1
 * (pthread_sigmask) around every use of stats_lock.
 *
 * While the thread holds stats_lock, SIGUSR1 stays pending and its
 * handler runs only after the unlock (here: the signal is raised inside
 * the blocked section, so it is delivered by the unblocking
 * pthread_sigmask, with the lock already released).  The handler can
 * never interrupt a holder: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled;
static long stats;

static void on_usr1(int sig)
{
    (void)sig;
    OK(pthread_mutex_lock(&stats_lock));
    stats++;
    OK(pthread_mutex_unlock(&stats_lock));
    handled++;
}

static void bump(int raise_inside)
{
    sigset_t usr1, old;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    OK(pthread_sigmask(SIG_BLOCK, &usr1, &old));
    OK(pthread_mutex_lock(&stats_lock));
    stats++;
    if (raise_inside)
        OK(raise(SIGUSR1)); /* pending: blocked */
    OK(pthread_mutex_unlock(&stats_lock));
    CHECK(handled == 0);
    OK(pthread_sigmask(SIG_SETMASK, &old, NULL)); /* delivered here */
}

int main(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    OK(sigaction(SIGUSR1, &act, NULL));

    bump(0);
    bump(1);
    CHECK(handled == 1 && stats == 3);
    return 0;
}
