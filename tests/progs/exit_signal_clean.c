/*
 * exit_signal_clean.c - exit_holding_signal_term.c's twin: the child takes
 * and releases the mutex, then dies of SIGTERM holding nothing.
 *
 * Nothing is held when the process ends: no report, and the default
 * action proceeds (the parent checks the child died of SIGTERM).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        OK(pthread_mutex_lock(&lock_m));
        OK(pthread_mutex_unlock(&lock_m));
        raise(SIGTERM);
        _exit(3); /* not reached */
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    return 0;
}
