/*
 * kill_clean.c - kill_blocked.c's twin: SIGTERM ends a program whose
 * threads are not blocked (a worker holds a lock and sleeps; nobody waits
 * for it): no report, and the process still dies of SIGTERM.  A second
 * program detail: sigaction queries show the program SIG_DFL for SIGTERM,
 * as if nothing had been installed.  (Natively it dies of SIGTERM too,
 * hence HANGS, which only skips the native run.)
 *
 * HANGS: 8
 * EXPECT-SIGNAL: SIGTERM
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&work_lock));
    struct timespec ts = {5, 0};
    nanosleep(&ts, NULL);
    OK(pthread_mutex_unlock(&work_lock));
    return arg;
}

int main(void)
{
    struct sigaction sa;
    CHECK(sigaction(SIGTERM, NULL, &sa) == 0);
    CHECK(sa.sa_handler == SIG_DFL && sa.sa_flags == 0);
    spawn_thread(worker, NULL);
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    raise(SIGTERM);
    return 0;
}
