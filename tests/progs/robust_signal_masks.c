/*
 * robust_signal_masks.c - signal masks of a program with handlers of its
 * own: blocking with sigprocmask() and pthread_sigmask() holds a raised
 * signal pending (sigpending shows it, no handler runs) until it is
 * unblocked, when it is delivered before the unblocking call returns; a
 * thread that blocks SIGRTMIN consumes it with sigwait().
 *
 * SIGUSR1's handler takes mask_lock; main takes mask_lock too, but only
 * while SIGUSR1 is blocked (once with sigprocmask, once with
 * pthread_sigmask), so the handler can never interrupt a holder: no
 * signal-unsafe-lock, which needs the validator's view of the mask to
 * follow every change, SIG_SETMASK restores included.  SIGRTMIN is blocked
 * in every thread (main blocks it before starting any); five of them,
 * sent to the process, queue and are taken by the sigwait thread.  No
 * report; every count, mask and pending set is checked.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>
#include <unistd.h>

static pthread_mutex_t mask_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t usr1;
static long in_lock;

static void on_usr1(int sig)
{
    OK(pthread_mutex_lock(&mask_lock));
    usr1 += sig == SIGUSR1;
    OK(pthread_mutex_unlock(&mask_lock));
}

static void *sigwaiter(void *arg)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN);
    long got = 0;
    for (int i = 0; i < 5; i++) {
        int sig = 0;
        OK(sigwait(&set, &sig));
        got += sig == SIGRTMIN;
    }
    return arg ? arg : (void *)got;
}

/* With SIGUSR1 blocked: take mask_lock, raise SIGUSR1 (pending). */
static void locked_with_pending(void)
{
    sigset_t pending;
    OK(pthread_mutex_lock(&mask_lock));
    in_lock++;
    OK(raise(SIGUSR1));
    OK(sigpending(&pending));
    CHECK(sigismember(&pending, SIGUSR1) == 1);
    OK(pthread_mutex_unlock(&mask_lock));
}

int main(void)
{
    sigset_t rt, usr1set, old, cur;
    sigemptyset(&rt);
    sigaddset(&rt, SIGRTMIN);
    OK(pthread_sigmask(SIG_BLOCK, &rt, NULL)); /* inherited by every thread */
    pthread_t waiter = spawn_thread(sigwaiter, NULL);
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    OK(sigaction(SIGUSR1, &act, NULL));

    sigemptyset(&usr1set);
    sigaddset(&usr1set, SIGUSR1);
    OK(sigprocmask(SIG_BLOCK, &usr1set, &old));
    CHECK(sigismember(&old, SIGUSR1) == 0 && sigismember(&old, SIGRTMIN) == 1);
    locked_with_pending();
    CHECK(usr1 == 0);
    OK(sigprocmask(SIG_UNBLOCK, &usr1set, NULL)); /* delivered before this returns */
    CHECK(usr1 == 1);

    OK(pthread_sigmask(SIG_BLOCK, &usr1set, NULL));
    locked_with_pending();
    CHECK(usr1 == 1);
    OK(pthread_sigmask(SIG_SETMASK, &old, NULL)); /* SIGUSR1 unblocked again */
    CHECK(usr1 == 2 && in_lock == 2);
    OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
    CHECK(sigismember(&cur, SIGUSR1) == 0 && sigismember(&cur, SIGRTMIN) == 1);
    OK(raise(SIGUSR1)); /* mask_lock free: the handler takes it */
    CHECK(usr1 == 3);

    for (int i = 0; i < 5; i++) /* real-time signals queue: five deliveries */
        OK(kill(getpid(), SIGRTMIN));
    CHECK(join_thread(waiter) == (void *)5);
    OK(sigpending(&cur));
    CHECK(sigismember(&cur, SIGRTMIN) == 0);
    return 0;
}
