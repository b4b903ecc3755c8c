/*
 * exit_signal_handler_clean.c - a program with its own SIGTERM handler:
 * SIGTERM arrives while the thread holds a mutex, the handler only sets a
 * flag, and the program unlocks and exits cleanly.
 *
 * The program's handler is in charge, the process does not die of the
 * signal and ends holding nothing: no report (the parent checks the
 * child's clean exit).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

int main(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_term;
        CHECK(sigaction(SIGTERM, &sa, NULL) == 0);
        OK(pthread_mutex_lock(&lock_m));
        raise(SIGTERM);
        CHECK(stop);
        OK(pthread_mutex_unlock(&lock_m));
        exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}
