/*
 * robust_signal_sysv_unsafe.c - signal handlers installed through glibc's
 * other installers: sysv_signal() (which is what plain signal() resolves
 * to in a program built in strict ISO mode, e.g. -std=c11: glibc's
 * <signal.h> redirects it to __sysv_signal), bsd_signal() and sigset().
 * Each handler takes a lock that the program also takes with that signal
 * unblocked.
 *
 *   SIGUSR1 (sysv_signal): usr1_lock;  SIGUSR2 (bsd_signal): usr2_lock;
 *   SIGHUP (sigset): hup_lock.
 * If a signal arrived while main held its lock, the handler would block on
 * it forever on main's own thread: three signal-unsafe-lock reports, as for
 * a handler installed with sigaction() or signal() (signal_unsafe_lock.c).
 * Each signal is raised once with its lock free, so nothing hangs; the
 * handlers run (counts checked), and the dispositions read back as glibc
 * installs them: sysv_signal is one-shot (SA_RESETHAND | SA_NODEFER, back
 * to SIG_DFL after the delivery), bsd_signal and sigset keep the handler.
 *
 * EXPECT: signal-unsafe-lock usr1_lock
 * EXPECT: signal-unsafe-lock usr2_lock
 * EXPECT: signal-unsafe-lock hup_lock
 */
#include "progs.h"

#include <signal.h>

/* In libc, but declared only for old X/Open modes. */
extern sighandler_t bsd_signal(int sig, sighandler_t handler);

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

int main(void)
{
    CHECK(sysv_signal(SIGUSR1, on_usr1) == SIG_DFL);
    CHECK(bsd_signal(SIGUSR2, on_usr2) == SIG_DFL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK(sigset(SIGHUP, on_hup) == SIG_DFL);
#pragma GCC diagnostic pop

    locked_bump(&usr1_lock, &usr1); /* each signal can arrive here */
    locked_bump(&usr2_lock, &usr2);
    locked_bump(&hup_lock, &hup);
    OK(raise(SIGUSR1));
    OK(raise(SIGUSR2));
    OK(raise(SIGHUP));
    CHECK(usr1 == 2 && usr2 == 2 && hup == 2);

    struct sigaction cur;
    OK(sigaction(SIGUSR1, NULL, &cur));
    CHECK(cur.sa_handler == SIG_DFL); /* one-shot */
    OK(sigaction(SIGUSR2, NULL, &cur));
    CHECK(cur.sa_handler == on_usr2);
    OK(sigaction(SIGHUP, NULL, &cur));
    CHECK(cur.sa_handler == on_hup);
    return 0;
}
