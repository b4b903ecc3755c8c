/*
 * A child that takes lock_a before lock_b and then ends with abort(), as a
 * test runner does on a failed assertion: no exit handler runs, yet its
 * graph dump must hold the edge (edges are appended as they are recorded).
 * The dump lacks only its final record.  The parent checks that the child
 * died by SIGABRT and exits 0; its own dump is complete.
 *
 * EXPECT: none
 * EXPECT-GRAPH-EDGE: lock_a lock_b
 * EXPECT-GRAPH-INCOMPLETE: 1
 */
#include "progs.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        OK(pthread_mutex_lock(&lock_a));
        OK(pthread_mutex_lock(&lock_b));
        OK(pthread_mutex_unlock(&lock_b));
        OK(pthread_mutex_unlock(&lock_a));
        abort();
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    return 0;
}
