/*
 * fork_exec_clean.c - thread `holder` holds lock_l (parked on a barrier)
 * while main forks, and the child execs /bin/true at once.
 *
 * The child never touches lock_l: exec replaces the whole image, stale
 * lock included.  That is the normal way to start a process from a
 * threaded program, and nothing can hang: no report.  /bin/true inherits
 * LD_PRELOAD and ULOCKDEP_OPTIONS; it takes no lock and must not report
 * either (the JSON file is shared).  The parent checks the child exited 0.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_l = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t holding, forked;

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&lock_l));
    pthread_barrier_wait(&holding);
    pthread_barrier_wait(&forked);
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&holding, NULL, 2));
    OK(pthread_barrier_init(&forked, NULL, 2));
    pthread_t t = spawn_thread(holder, NULL);
    pthread_barrier_wait(&holding);

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127); /* exec failed */
    }
    pthread_barrier_wait(&forked);
    join_thread(t);

    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}
