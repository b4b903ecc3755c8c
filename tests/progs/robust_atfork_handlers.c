/*
 * robust_atfork_handlers.c - pthread_atfork handlers that take the
 * program's locks, the standard way to make a library fork-safe: the
 * prepare handler locks table_lock (so no other thread is inside the
 * table at the fork), the parent and child handlers unlock it.
 *
 * The interleaving that matters, made deterministic: thread `worker` holds
 * table_lock and is about to take entry_lock (table_lock -> entry_lock, a
 * nesting seen for the first time) when main forks.  glibc's fork runs the
 * prepare handler, which waits for table_lock; `worker` gets entry_lock,
 * releases both, and the fork goes on.  Natively this always completes:
 * fork waits for `worker`, `worker` waits for nothing.  An interposed
 * fork() that took a lock of its own before glibc ran the handlers, and
 * that `worker`'s acquisition needs, would hang both threads.  The worker
 * starts its acquisition once the prepare handler is running (a flag it
 * sets first).  One order everywhere, no report; the child checks it can
 * use both locks and exits 0, and the parent checks its status.
 *
 * TIMEOUT: 10
 * EXPECT: none
 */
#include "progs.h"

#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t entry_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int in_prepare, worker_holding;
static int prepares, parents, children, entries;

static void prepare(void)
{
    atomic_store(&in_prepare, 1);
    OK(pthread_mutex_lock(&table_lock)); /* waits for `worker` */
    prepares++;
}

static void parent(void)
{
    parents++;
    OK(pthread_mutex_unlock(&table_lock));
}

static void child(void)
{
    children++;
    OK(pthread_mutex_unlock(&table_lock));
}

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&table_lock));
    atomic_store(&worker_holding, 1);
    while (!atomic_load(&in_prepare))
        ; /* main is inside fork(), in the prepare handler */
    OK(pthread_mutex_lock(&entry_lock)); /* table_lock -> entry_lock */
    entries++;
    OK(pthread_mutex_unlock(&entry_lock));
    OK(pthread_mutex_unlock(&table_lock));
    return arg;
}

int main(void)
{
    OK(pthread_atfork(prepare, parent, child));
    pthread_t t = spawn_thread(worker, NULL);
    while (!atomic_load(&worker_holding))
        ;
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        CHECK(prepares == 1 && children == 1 && parents == 0 && entries == 1);
        OK(pthread_mutex_lock(&table_lock));
        OK(pthread_mutex_lock(&entry_lock));
        OK(pthread_mutex_unlock(&entry_lock));
        OK(pthread_mutex_unlock(&table_lock));
        exit(0);
    }
    join_thread(t);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "child status %#x\n", status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(prepares == 1 && parents == 1 && children == 0 && entries == 1);
    return 0;
}
