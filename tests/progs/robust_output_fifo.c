/*
 * robust_output_fifo.c - log_path and graph_path name FIFOs that nobody
 * reads (a log collector that is not running).  Opening a FIFO for writing
 * blocks until a reader comes: a preload library that opens its outputs
 * that way hangs the program at start-up (log) or at exit (graph).
 *
 * The program creates the FIFOs and runs itself again with the options
 * pointing at them (so they exist before the library starts).  The child
 * must run to its end: each output says once that it cannot be used (a
 * FIFO with no reader), the report goes to stderr instead and into the
 * JSON file (json_path, from the runner).  The ABBA in the child: one
 * lock-order-inversion; the parent checks the child's exit status itself.
 *
 * ARGS: parent
 * TIMEOUT: 20
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: ^ulockdep: cannot open log_path '.*?log\.fifo' \(a FIFO with no reader\); reports go to stderr$
 * EXPECT-STDERR: ^ulockdep: cannot open graph_path '.*?graph\.fifo' \(a FIFO with no reader\); no graph written$
 * EXPECT-STDERR: possible circular locking dependency detected
 */
#include "progs.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void nest(pthread_mutex_t *a, pthread_mutex_t *b)
{
    OK(pthread_mutex_lock(a));
    OK(pthread_mutex_lock(b));
    OK(pthread_mutex_unlock(b));
    OK(pthread_mutex_unlock(a));
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child")) {
        nest(&lock_a, &lock_b);
        nest(&lock_b, &lock_a);
        return 0;
    }
    unlink("log.fifo");
    unlink("graph.fifo");
    OK(mkfifo("log.fifo", 0600));
    OK(mkfifo("graph.fifo", 0600));
    const char *old = getenv("ULOCKDEP_OPTIONS");
    char opts[4096];
    snprintf(opts, sizeof(opts), "%s%slog_path=log.fifo:graph_path=graph.fifo", old ? old : "",
             old && *old ? ":" : "");
    OK(setenv("ULOCKDEP_OPTIONS", opts, 1));
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", (char *)NULL);
        _exit(127);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    int preloaded = getenv("LD_PRELOAD") != NULL;
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == (preloaded ? 66 : 0));
    OK(unlink("log.fifo"));
    OK(unlink("graph.fifo"));
    return 0;
}
