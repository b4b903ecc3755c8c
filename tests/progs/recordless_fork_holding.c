/*
 * recordless_fork_holding.c - a worker holds a per-request lock it took
 * holding nothing (no record) when main forks; the child locks it and
 * would wait for ever (a timed lock, to end).  fork-holding in the child,
 * naming the lock.  Exit statuses as in fork_holding.c.
 *
 * EXPECT: fork-holding request_new:*#2
 * EXPECT-EXIT: 0
 */
#include "recordless.h"

#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    request_thread_warm();
    struct request *r = request_new();
    static pthread_mutex_t probe = PTHREAD_MUTEX_INITIALIZER; /* not r's: no record for it */
    int validated = uld_is_held(&probe) != -1;
    pthread_t t = holder_start(r);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct timespec deadline = in_ms(CLOCK_REALTIME, 50);
        int rc = pthread_mutex_timedlock(&r->lock, &deadline); /* never granted */
        _exit(rc == ETIMEDOUT ? 0 : 1);
    }
    holder_stop(t);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == (validated ? 66 : 0));
    request_free(r);
    return 0;
}
