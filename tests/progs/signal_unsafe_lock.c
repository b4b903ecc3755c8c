/*
 * signal_unsafe_lock.c - stats_lock is taken inside the SIGUSR1 handler
 * and, in normal context, by a thread that does not block SIGUSR1.
 *
 * If SIGUSR1 arrives while the thread holds stats_lock, the handler runs
 * on that same thread and blocks on stats_lock forever: the holder cannot
 * release it until the handler returns.  The validator must report the
 * lock (the kernel's irq-safety rule with signals for interrupts), from
 * these two uses alone, although here the signal is raised when the lock
 * is *not* held, so nothing hangs.  raise() delivers to the calling
 * thread before it returns.
 *
 * The interposed sigaction() must not change what the program sees:
 * sigaction(SIGUSR1, NULL, &old) returns the program's handler, its
 * flags (SA_RESTART; SA_RESTORER is glibc's own, masked off here, see
 * signal_sigaction_view_clean.c) and its mask.
 *
 * EXPECT: signal-unsafe-lock stats_lock
 */
#include "progs.h"

#include <signal.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* x86_64 kernel ABI; not in glibc's headers */
#endif

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled;
static long stats;

static void on_usr1(int sig)
{
    CHECK(sig == SIGUSR1);
    OK(pthread_mutex_lock(&stats_lock)); /* in the handler */
    stats++;
    OK(pthread_mutex_unlock(&stats_lock));
    handled++;
}

int main(void)
{
    struct sigaction act, old;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGUSR2);
    act.sa_flags = SA_RESTART;
    OK(sigaction(SIGUSR1, &act, NULL));

    OK(sigaction(SIGUSR1, NULL, &old));
    CHECK(old.sa_handler == on_usr1);
    CHECK((old.sa_flags & ~SA_RESTORER) == SA_RESTART);
    CHECK(sigismember(&old.sa_mask, SIGUSR2) == 1);
    CHECK(sigismember(&old.sa_mask, SIGINT) == 0);

    OK(pthread_mutex_lock(&stats_lock)); /* SIGUSR1 can interrupt here */
    stats++;
    OK(pthread_mutex_unlock(&stats_lock));

    OK(raise(SIGUSR1)); /* stats_lock not held: the handler gets it */
    CHECK(handled == 1 && stats == 2);
    return 0;
}
