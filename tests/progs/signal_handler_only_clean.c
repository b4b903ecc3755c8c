/*
 * signal_handler_only_clean.c - a SIGUSR2 handler installed with
 * SA_SIGINFO | SA_RESTART and an sa_mask (SIGUSR1) takes handler_lock, a
 * lock nothing else ever takes; normal context takes only main_lock.
 *
 * A lock used only inside one handler (whose own signal is blocked while
 * it runs, no SA_NODEFER) can never be held where the handler interrupts:
 * no report.  main_lock is held, SIGUSR2 unblocked, when the signal is
 * raised: the handler interrupts a holder of main_lock and takes
 * handler_lock, which is fine as the handler never needs main_lock.
 *
 * The program's view is checked: the three-argument handler gets its
 * siginfo (si_signo, si_code SI_TKILL from raise), SIGUSR1 and SIGUSR2
 * are blocked inside it, and sigaction(SIGUSR2, NULL, &old) returns
 * sa_sigaction, the flags (SA_RESTORER masked off, see
 * signal_sigaction_view_clean.c) and the mask the program installed.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* x86_64 kernel ABI; not in glibc's headers */
#endif

static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t main_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled;

static void on_usr2(int sig, siginfo_t *info, void *ctx)
{
    sigset_t now;
    CHECK(sig == SIGUSR2 && info != NULL && ctx != NULL);
    CHECK(info->si_signo == SIGUSR2 && info->si_code == SI_TKILL);
    OK(pthread_sigmask(SIG_BLOCK, NULL, &now));
    CHECK(sigismember(&now, SIGUSR2) == 1 && sigismember(&now, SIGUSR1) == 1);
    OK(pthread_mutex_lock(&handler_lock));
    handled++;
    OK(pthread_mutex_unlock(&handler_lock));
}

int main(void)
{
    struct sigaction act, old;
    memset(&act, 0, sizeof(act));
    act.sa_sigaction = on_usr2;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGUSR1);
    act.sa_flags = SA_SIGINFO | SA_RESTART;
    OK(sigaction(SIGUSR2, &act, NULL));

    OK(sigaction(SIGUSR2, NULL, &old));
    CHECK(old.sa_sigaction == on_usr2);
    CHECK((old.sa_flags & ~SA_RESTORER) == (SA_SIGINFO | SA_RESTART));
    CHECK(sigismember(&old.sa_mask, SIGUSR1) == 1);
    CHECK(sigismember(&old.sa_mask, SIGUSR2) == 0);

    OK(pthread_mutex_lock(&main_lock));
    OK(raise(SIGUSR2)); /* interrupts a holder of main_lock */
    OK(pthread_mutex_unlock(&main_lock));
    OK(raise(SIGUSR2));
    CHECK(handled == 2);
    return 0;
}
