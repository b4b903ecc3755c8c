/*
 * robust_signal_old_masks.c - masks changed through the old calls, which
 * glibc implements without pthread_sigmask or sigprocmask: sighold and
 * sigrelse (XSI), sigblock and sigsetmask (BSD).
 *
 * The SIGUSR1 handler takes held_lock, open_lock and open2_lock.  main
 * takes held_lock only while SIGUSR1 is blocked (sighold, then sigblock),
 * so the handler cannot interrupt its holder: no report for it (one would
 * mean a block went unseen).  main takes open_lock after sigrelse and
 * open2_lock after sigsetmask gave the old mask back, SIGUSR1 unblocked
 * both times: if it arrived then, the handler would block on the lock on
 * the same thread forever, so two signal-unsafe-lock (missing ones would
 * mean an unblock went unseen).  A SIGUSR1 raised while blocked stays
 * pending until the unblocking call, checked.  main takes a lock before
 * the first change, so the validator cannot learn the mask from the
 * kernel when it first meets the thread.
 *
 * EXPECT: signal-unsafe-lock open_lock
 * EXPECT: signal-unsafe-lock open2_lock
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t open2_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t usr1;
static long n;

#define USR1_BIT (1 << (SIGUSR1 - 1)) /* sigmask(), deprecated in glibc */

static void bump(pthread_mutex_t *m)
{
    OK(pthread_mutex_lock(m));
    n++;
    OK(pthread_mutex_unlock(m));
}

static void on_usr1(int sig)
{
    (void)sig;
    bump(&held_lock);
    bump(&open_lock);
    bump(&open2_lock);
    usr1++;
}

int main(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    OK(sigaction(SIGUSR1, &act, NULL));
    bump(&open_lock); /* the validator knows this thread (and its mask) from here on */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    OK(sighold(SIGUSR1));
    bump(&held_lock);
    OK(raise(SIGUSR1));
    CHECK(usr1 == 0); /* pending */
    OK(sigrelse(SIGUSR1));
    CHECK(usr1 == 1);
    bump(&open_lock);

    int old = sigblock(USR1_BIT);
    CHECK(!(old & USR1_BIT));
    bump(&held_lock);
    OK(raise(SIGUSR1));
    CHECK(usr1 == 1);
    CHECK(sigsetmask(old) == (old | USR1_BIT));
    CHECK(usr1 == 2);
    bump(&open2_lock);
#pragma GCC diagnostic pop
    CHECK(n == 11);
    return 0;
}
