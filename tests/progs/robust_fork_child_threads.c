/*
 * robust_fork_child_threads.c - a single-threaded parent forks; the child
 * is an ordinary process that starts threads of its own, and two of them
 * contend for a mutex the child created (a pre-forking server's workers
 * do exactly this).
 *
 * The parent had no other thread at the fork, so nothing in the child can
 * be a lock "held by another thread when the process forked".  In the
 * child, worker 1 holds work_lock (parked on a barrier) while worker 2
 * tries it (trylock: EBUSY, its owner is worker 1, a live thread of the
 * child) and then blocks in pthread_mutex_lock until worker 1 releases
 * it.  Plain contention: no report, in the child or the parent.  The same
 * is done with parent_lock, a mutex the parent used before the fork (and
 * had released).  The child checks the return codes and the count and
 * exits 0; the parent checks its status.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t parent_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t *work_lock;
static pthread_barrier_t held, tried;
static int count;

static void *holder(void *m)
{
    OK(pthread_mutex_lock(m));
    pthread_barrier_wait(&held);
    pthread_barrier_wait(&tried);
    count++;
    OK(pthread_mutex_unlock(m));
    return NULL;
}

static void *contender(void *m)
{
    pthread_barrier_wait(&held);
    CHECK_RC(pthread_mutex_trylock(m), EBUSY); /* a live thread of this process holds it */
    pthread_barrier_wait(&tried);
    OK(pthread_mutex_lock(m)); /* waits for the holder's unlock */
    count++;
    OK(pthread_mutex_unlock(m));
    return NULL;
}

static void contend(pthread_mutex_t *m)
{
    pthread_t h = spawn_thread(holder, m), c = spawn_thread(contender, m);
    join_thread(h);
    join_thread(c);
}

int main(void)
{
    OK(pthread_mutex_lock(&parent_lock));
    OK(pthread_mutex_unlock(&parent_lock));
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        OK(pthread_barrier_init(&held, NULL, 2));
        OK(pthread_barrier_init(&tried, NULL, 2));
        work_lock = malloc(sizeof(*work_lock));
        CHECK(work_lock != NULL);
        OK(pthread_mutex_init(work_lock, NULL));
        contend(work_lock);
        contend(&parent_lock);
        CHECK(count == 4);
        exit(0);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "child status %#x\n", status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return 0;
}
