/*
 * exit_holding_signal_external.c - SIGTERM from another process (a
 * supervisor, `timeout`, `kill`) ends a process whose signalled thread
 * holds a mutex.
 *
 * exit-holding, as for a signal the process sends itself.  Such a signal
 * may interrupt the thread anywhere, malloc included, so the report is
 * made without allocating: code is named by module and offset (the text
 * says so) and the lock by its annotation name.  The parent checks that
 * the child died of SIGTERM, natively and under the validator alike.
 *
 * EXPECT: exit-holding state_lock
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: not symbolised
 * EXPECT-STDERR: \(.*exit_holding_signal_external\+0x[0-9a-f]+\)
 */
#include "progs.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        uld_lock_set_name(&lock_m, "state_lock");
        OK(pthread_mutex_lock(&lock_m));
        CHECK(write(ready[1], "x", 1) == 1);
        for (;;)
            pause();
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1);
    CHECK(kill(pid, SIGTERM) == 0);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    return 0;
}
