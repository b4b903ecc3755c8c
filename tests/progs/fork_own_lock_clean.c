/*
 * fork_own_lock_clean.c - the *forking* thread holds lock_l across fork;
 * the child unlocks it and locks it again.
 *
 * fork() copies the calling thread, so in the child lock_l is held by the
 * child's only thread, which releases it normally (this is what
 * pthread_atfork handlers do with the locks they take in `prepare`).  Not
 * a fork-holding problem, not an unlock-not-owner: no report in either
 * process.  The child's _exit(0) stays 0 (checked by the parent).
 *
 * EXPECT: none
 */
#include "progs.h"

#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;

static void *other(void *arg)
{
    OK(pthread_mutex_lock(&lock_l)); /* another thread exists, lock_l is shared */
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    run_thread(other, NULL);

    OK(pthread_mutex_lock(&lock_l));
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (pthread_mutex_unlock(&lock_l) != 0 || pthread_mutex_lock(&lock_l) != 0 ||
            pthread_mutex_unlock(&lock_l) != 0)
            _exit(1);
        _exit(0);
    }
    OK(pthread_mutex_unlock(&lock_l));

    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}
