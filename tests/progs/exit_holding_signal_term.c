/*
 * exit_holding_signal_term.c - a process dies of SIGTERM (no handler of
 * its own: the default action) from the thread that holds a mutex.
 *
 * As with exit() holding a lock, the process ends with the lock's state
 * lost mid-update: exit-holding, naming the lock.  The child sends the
 * signal to itself (raise), then the default action proceeds: the parent
 * checks that the child died of SIGTERM (status 143 in a shell), natively
 * and under the validator alike, and exits 0.
 *
 * EXPECT: exit-holding lock_m
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: SIGTERM ends the process while this thread holds 1 lock
 * EXPECT-STDERR: exit_holding_signal_term\.c:{{line:take}}\b
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
        OK(pthread_mutex_lock(&lock_m)); /* @line:take */
        raise(SIGTERM);
        _exit(3); /* not reached */
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    return 0;
}
