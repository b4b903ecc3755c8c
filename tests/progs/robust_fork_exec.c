/*
 * robust_fork_exec.c - fork then exec, from a parent with other threads
 * running: 10 times execl("/bin/true"), 10 times execl of this program
 * itself with the argument "child", while two threads keep taking
 * bg_a -> bg_b (and may hold them at any fork).
 *
 * A child that execs at once never touches a lock: exec replaces the whole
 * image, stale locks included (fork_exec_clean.c).  /bin/true and the
 * re-executed program inherit LD_PRELOAD and ULOCKDEP_OPTIONS, so the
 * validator starts afresh in them; the re-executed program, in "child"
 * mode, takes child_a -> child_b in two threads, writes the sum it computed
 * to its stdout (a pipe to the parent) and exits 0.  Every order is
 * consistent and no lock is used across a fork: no report in any process.
 * The parent checks each child's exit status and each line it wrote.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t bg_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t bg_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t child_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t child_b = PTHREAD_MUTEX_INITIALIZER;
static atomic_int stop;
static long sum;

static void *bg(void *arg)
{
    while (!atomic_load(&stop)) {
        OK(pthread_mutex_lock(&bg_a));
        OK(pthread_mutex_lock(&bg_b));
        OK(pthread_mutex_unlock(&bg_b));
        OK(pthread_mutex_unlock(&bg_a));
    }
    return arg;
}

static void *add(void *arg)
{
    for (long i = 1; i <= 100; i++) {
        OK(pthread_mutex_lock(&child_a));
        OK(pthread_mutex_lock(&child_b));
        sum += i;
        OK(pthread_mutex_unlock(&child_b));
        OK(pthread_mutex_unlock(&child_a));
    }
    return arg;
}

static int child_mode(void)
{
    pthread_t t = spawn_thread(add, NULL);
    add(NULL);
    join_thread(t);
    printf("sum %ld\n", sum);
    return 0;
}

/* Fork, exec argv in the child with stdout on a pipe; the child's output. */
static void run(char *const argv[], char *out, size_t size)
{
    int fds[2];
    OK(pipe(fds));
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < size && (r = read(fds[0], out + n, size - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = '\0';
    close(fds[0]);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "%s: status %#x\n", argv[0], status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "child") == 0)
        return child_mode();
    CHECK(argc == 1);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    CHECK(len > 0);
    self[len] = '\0';

    pthread_t t[2] = {spawn_thread(bg, NULL), spawn_thread(bg, NULL)};
    char out[256];
    char *true_argv[] = {"/bin/true", NULL};
    char *self_argv[] = {self, "child", NULL};
    for (int i = 0; i < 10; i++) {
        run(true_argv, out, sizeof(out));
        CHECK(out[0] == '\0');
        run(self_argv, out, sizeof(out));
        CHECK(strcmp(out, "sum 10100\n") == 0);
    }
    atomic_store(&stop, 1);
    join_thread(t[0]);
    join_thread(t[1]);
    return 0;
}
