/*
 * A child that takes lock_a before lock_b, tells its parent, and waits to be
 * killed with SIGKILL, as `timeout` ends a hung test.  Nothing of the child
 * runs after the kill, yet its graph dump must hold the edge: it was
 * appended when recorded.  Its dump lacks only the final record.
 *
 * EXPECT: none
 * EXPECT-GRAPH-EDGE: lock_a lock_b
 * EXPECT-GRAPH-INCOMPLETE: 1
 */
#include "progs.h"

#include <signal.h>
#include <sys/wait.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        OK(pthread_mutex_lock(&lock_a));
        OK(pthread_mutex_lock(&lock_b));
        OK(pthread_mutex_unlock(&lock_b));
        OK(pthread_mutex_unlock(&lock_a));
        CHECK(write(ready[1], "x", 1) == 1);
        for (;;)
            pause();
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1);
    CHECK(kill(pid, SIGKILL) == 0);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return 0;
}
