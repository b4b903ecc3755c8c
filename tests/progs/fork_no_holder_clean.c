/*
 * fork_no_holder_clean.c - clean twin of fork_holding.c: `holder` takes
 * and releases lock_l and is joined before main forks; the child locks
 * lock_l.
 *
 * At the fork no thread holds lock_l, so the child's copy is unlocked and
 * its pthread_mutex_lock succeeds at once.  No report in either process,
 * and the child's _exit(0) stays 0 under the validator (checked by the
 * parent).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    counter++;
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    run_thread(holder, NULL);

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (pthread_mutex_lock(&lock_l) != 0)
            _exit(1);
        counter++;
        if (pthread_mutex_unlock(&lock_l) != 0)
            _exit(1);
        _exit(counter == 2 ? 0 : 1);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(counter == 1);
    return 0;
}
