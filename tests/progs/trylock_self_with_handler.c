/*
 * trylock_self_with_handler.c - a thread trylocks a normal mutex it
 * already holds, in a program that has installed a signal handler (for
 * SIGUSR2, never raised; the handler takes no lock).
 *
 * pthread_mutex_trylock never blocks: on a mutex its caller holds it just
 * returns EBUSY (checked), so it is no self-deadlock (docs/reports.md:
 * self-deadlock is a relock that blocks or fails - lock, timedlock,
 * clocklock, EDEADLK - and a trylock is none of these).  But the lock
 * call it stands for would hang the thread on itself: a trylock-held
 * warning, the program's status unchanged.  Once a handler exists,
 * trylocks are checked for signal safety, which must not turn this into a
 * self-deadlock report.  Normal context only, no lock in any handler: no
 * signal-unsafe-lock either.
 *
 * EXPECT: trylock-held lock_t
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t lock_t = PTHREAD_MUTEX_INITIALIZER;

static void on_usr2(int sig)
{
    (void)sig;
}

int main(void)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr2;
    sigemptyset(&act.sa_mask);
    OK(sigaction(SIGUSR2, &act, NULL));

    OK(pthread_mutex_lock(&lock_t));
    CHECK_RC(pthread_mutex_trylock(&lock_t), EBUSY); /* held by this thread */
    OK(pthread_mutex_unlock(&lock_t));
    return 0;
}
