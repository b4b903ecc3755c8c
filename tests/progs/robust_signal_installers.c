/*
 * robust_signal_installers.c - the installers robust_signal_sysv_unsafe.c
 * leaves out: __sysv_signal (plain signal() in a strict ISO C program:
 * <signal.h> redirects to it), ssignal (an old alias of signal), and
 * sigset(S, SIG_HOLD), which blocks S without pthread_sigmask or
 * sigprocmask; also siginterrupt(S, 0), after which signal() installs
 * with SA_RESTART again.
 *
 *   SIGUSR1 (__sysv_signal) takes usr1_lock, SIGUSR2 (ssignal) usr2_lock;
 *   main takes both with the signal unblocked: two signal-unsafe-lock.
 *   SIGHUP (sigset) takes hup_lock; main takes it only while SIGHUP is
 *   held by sigset(SIGHUP, SIG_HOLD), so the handler can never interrupt
 *   its holder: no report (one would mean the hold went unseen).  A
 *   SIGHUP raised while held stays pending until sigset(SIGHUP, on_hup)
 *   releases it (returning SIG_HOLD) and runs the handler.
 * Dispositions and return values are checked as glibc gives them.
 *
 * EXPECT: signal-unsafe-lock usr1_lock
 * EXPECT: signal-unsafe-lock usr2_lock
 */
#include "progs.h"

#include <signal.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* x86_64 kernel ABI; not in glibc's headers */
#endif

extern sighandler_t __sysv_signal(int sig, sighandler_t handler);

static pthread_mutex_t usr1_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t usr2_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t hup_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t usr1, usr2, hup;

static void locked_bump(pthread_mutex_t *m, volatile sig_atomic_t *count)
{
    OK(pthread_mutex_lock(m));
    (*count)++;
    OK(pthread_mutex_unlock(m));
}

static void on_usr1(int sig) { (void)sig; locked_bump(&usr1_lock, &usr1); }
static void on_usr2(int sig) { (void)sig; locked_bump(&usr2_lock, &usr2); }
static void on_hup(int sig) { (void)sig; locked_bump(&hup_lock, &hup); }
static void on_urg(int sig) { (void)sig; }

int main(void)
{
    struct sigaction cur;
    CHECK(__sysv_signal(SIGUSR1, on_usr1) == SIG_DFL);
    CHECK(ssignal(SIGUSR2, on_usr2) == SIG_DFL);
    CHECK(ssignal(SIGUSR2, on_usr2) == on_usr2);
    locked_bump(&usr1_lock, &usr1); /* each signal can arrive here */
    locked_bump(&usr2_lock, &usr2);
    OK(raise(SIGUSR1));
    OK(raise(SIGUSR2));
    CHECK(usr1 == 2 && usr2 == 2);
    OK(sigaction(SIGUSR1, NULL, &cur)); /* one-shot, flags as installed */
    CHECK(cur.sa_handler == SIG_DFL);
    CHECK(cur.sa_flags == (int)(SA_RESETHAND | SA_NODEFER | SA_RESTORER));

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK(sigset(SIGHUP, on_hup) == SIG_DFL);
    OK(raise(SIGHUP));
    CHECK(hup == 1);
    CHECK(sigset(SIGHUP, SIG_HOLD) == on_hup);
    CHECK(sigset(SIGHUP, SIG_HOLD) == SIG_HOLD);
    locked_bump(&hup_lock, &hup); /* SIGHUP held: cannot interrupt */
    OK(raise(SIGHUP));
    CHECK(hup == 2); /* pending */
    CHECK(sigset(SIGHUP, on_hup) == SIG_HOLD);
    CHECK(hup == 3); /* delivered when released */

    OK(siginterrupt(SIGURG, 1));
    OK(siginterrupt(SIGURG, 0));
#pragma GCC diagnostic pop
    CHECK(signal(SIGURG, on_urg) == SIG_DFL);
    OK(sigaction(SIGURG, NULL, &cur));
    CHECK(cur.sa_flags == (SA_RESTART | SA_RESTORER));
    return 0;
}
