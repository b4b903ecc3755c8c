/*
 * exit_holding_abort.c - abort() (a failed assert(), in the small) from a
 * thread that holds a mutex.
 *
 * abort()'s SIGABRT ends the process with the lock held: exit-holding,
 * naming the lock.  Then abort proceeds as natively: the parent checks
 * that the child died of SIGABRT (cores are turned off in the child so
 * the test leaves none), natively and under the validator alike.
 *
 * EXPECT: exit-holding lock_m
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: SIGABRT ends the process while this thread holds 1 lock
 */
#include "progs.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        CHECK(setrlimit(RLIMIT_CORE, &no_core) == 0);
        OK(pthread_mutex_lock(&lock_m));
        abort();
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    return 0;
}
