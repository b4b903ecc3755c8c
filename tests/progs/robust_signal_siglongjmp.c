/*
 * robust_signal_siglongjmp.c - a signal handler that leaves with
 * siglongjmp() instead of returning (timeouts, probing memory, test
 * frameworks such as cmocka), after which the program goes on locking.
 *
 * The SIGUSR1 handler takes no lock and jumps back to main's sigsetjmp
 * point (savemask 1, so the signal mask from before the handler is back:
 * SIGUSR1 unblocked, checked).  From then on main is in normal context
 * again: it takes data_lock, and so does a second thread, both with
 * SIGUSR1 unblocked; no handler ever takes data_lock.  Nothing can
 * deadlock, no report.  A validator that still believes main runs inside
 * the SIGUSR1 handler (the handler never returned through it) would see
 * data_lock "taken in the handler" and report it as signal-unsafe.  The
 * jump is repeated, and the counts are checked.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <setjmp.h>
#include <signal.h>

static pthread_mutex_t data_lock = PTHREAD_MUTEX_INITIALIZER;
static sigjmp_buf env;
static volatile sig_atomic_t jumps;
static long data;

static void on_usr1(int sig)
{
    jumps++;
    siglongjmp(env, sig); /* never returns */
}

/* 1 once the handler has jumped back here; no CHECK across the jump. */
static __attribute__((noinline)) int raise_and_jump(void)
{
    if (sigsetjmp(env, 1) != 0)
        return 1;
    raise(SIGUSR1);
    return 0; /* not reached: the handler jumps */
}

static void *bump(void *arg)
{
    OK(pthread_mutex_lock(&data_lock));
    data++;
    OK(pthread_mutex_unlock(&data_lock));
    return arg;
}

int main(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    OK(sigaction(SIGUSR1, &act, NULL));

    for (int i = 0; i < 3; i++) {
        CHECK(raise_and_jump() == 1);
        sigset_t cur;
        OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
        CHECK(sigismember(&cur, SIGUSR1) == 0); /* restored by siglongjmp */
        bump(NULL);          /* main, normal context */
        run_thread(bump, NULL); /* another thread, normal context */
    }
    CHECK(jumps == 3 && data == 6);
    return 0;
}
