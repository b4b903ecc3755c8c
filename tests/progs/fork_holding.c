/*
 * fork_holding.c - thread `holder` holds lock_l (parked on a barrier)
 * while main forks; the child then locks lock_l.
 *
 * fork() copies only the calling thread: in the child lock_l stays locked
 * by a thread that does not exist there, so pthread_mutex_lock would
 * block forever.  The child uses pthread_mutex_timedlock with a 50 ms
 * timeout and gets ETIMEDOUT (checked); the validator must report
 * fork-holding lock_l in the child, before it blocks.
 *
 * Exit statuses: the child ends with _exit(0); ulockdep's _exit turns a
 * 0 into the error exit code (66, the runner's exitcode=66) when the
 * process reported an error, so the child exits 66 under the validator
 * and 0 natively (uld_is_held() returns -1 when the library is not
 * loaded).  The parent checks that and otherwise exits 0 itself: it
 * reported nothing (holding lock_l in another thread across fork is
 * harmless unless the child touches it), so its status stays 0 while the
 * JSON file, shared with the child, holds the child's report.
 *
 * EXPECT: fork-holding lock_l
 * EXPECT-EXIT: 0
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
    pthread_barrier_wait(&forked); /* until the parent has forked */
    OK(pthread_mutex_unlock(&lock_l));
    return arg;
}

int main(void)
{
    int validated = uld_is_held(&lock_l) != -1;
    OK(pthread_barrier_init(&holding, NULL, 2));
    OK(pthread_barrier_init(&forked, NULL, 2));
    pthread_t t = spawn_thread(holder, NULL);
    pthread_barrier_wait(&holding);

    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
        int rc = pthread_mutex_timedlock(&lock_l, &deadline); /* never granted */
        _exit(rc == ETIMEDOUT ? 0 : 1);
    }
    pthread_barrier_wait(&forked);
    join_thread(t);

    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == (validated ? 66 : 0));
    return 0;
}
