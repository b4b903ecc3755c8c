/*
 * robust_vfork_exec.c - vfork() followed by exec, the exec failing in one
 * child, which then leaves with _exit(127), the usual shape of
 * "vfork; execv; _exit(127)" code.
 *
 * A vfork child runs in its parent's memory, on its parent's stack, until
 * it execs or calls _exit; whatever an interposed _exit does there, it
 * does to the parent's state.  The parent first closes an ABBA
 * (lock_a -> lock_b in one thread, lock_b -> lock_a in another: one
 * lock-order-inversion report, an error), then vforks a child that execs
 * /bin/true (status 0) and one that fails to exec a missing file and
 * _exit(127)s (status 127; the child reported nothing, so its status must
 * stay 127).  The parent's end-of-run summary must still be the parent's:
 * one line naming the parent's pid, which the parent prints first.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: ^robust_vfork_exec: parent pid (\d+)$[\s\S]*^ulockdep: SUMMARY: 1 error, 0 warnings in pid \1$
 */
#include "progs.h"

#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *take(void *first)
{
    pthread_mutex_t *a = first, *b = a == &lock_a ? &lock_b : &lock_a;
    OK(pthread_mutex_lock(a));
    OK(pthread_mutex_lock(b));
    OK(pthread_mutex_unlock(b));
    OK(pthread_mutex_unlock(a));
    return NULL;
}

static int spawn_wait(const char *path)
{
    pid_t pid = vfork();
    CHECK(pid >= 0);
    if (pid == 0) {
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    return WEXITSTATUS(status);
}

int main(void)
{
    run_thread(take, &lock_a);
    run_thread(take, &lock_b); /* closes the cycle */
    fprintf(stderr, "robust_vfork_exec: parent pid %d\n", (int)getpid());
    CHECK(spawn_wait("/bin/true") == 0);
    CHECK(spawn_wait("/nonexistent/ulockdep-robust") == 127);
    return 0;
}
