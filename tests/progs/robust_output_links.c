/*
 * robust_output_links.c - output files in places other users can write.
 *
 * 1. log_path names a symbolic link (a local user pointed the name at a
 *    file of the program's owner): the link must not be followed; the
 *    target keeps its content and the report goes to stderr.
 * 2. (as root) log_path names a file another user created beforehand in a
 *    sticky world-writable directory (/tmp): it must not be written (that
 *    user would read every report).
 * 3. The files ulockdep creates are private: graph_path is created 0600.
 *
 * The program prepares the names and runs itself once per case with the
 * options pointing at them.  Each child has an ABBA: one
 * lock-order-inversion per child in the JSON file (from the runner).
 *
 * ARGS: parent
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-EXIT: 0
 * EXPECT-STDERR: ^ulockdep: cannot open log_path '.*?log\.link' \(a symbolic link; set follow_links=1 to write through it\); reports go to stderr$
 * EXPECT-STDERR: possible circular locking dependency detected
 */
#include "progs.h"

#include <fcntl.h>
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

static void run_child(const char *self, const char *extra)
{
    const char *old = getenv("ULOCKDEP_OPTIONS");
    char opts[4096];
    snprintf(opts, sizeof(opts), "%s%s%s", old ? old : "", old && *old ? ":" : "", extra);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        OK(setenv("ULOCKDEP_OPTIONS", opts, 1));
        execl("/proc/self/exe", self, "child", (char *)NULL);
        _exit(127);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == (getenv("LD_PRELOAD") ? 66 : 0));
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    CHECK(fd >= 0);
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    OK(close(fd));
}

static void expect_content(const char *path, const char *text)
{
    char buf[256];
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0);
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    CHECK(n >= 0);
    buf[n] = '\0';
    OK(close(fd));
    CHECK(strcmp(buf, text) == 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child")) {
        nest(&lock_a, &lock_b);
        nest(&lock_b, &lock_a);
        return 0;
    }
    int preloaded = getenv("LD_PRELOAD") != NULL;
    write_file("precious.txt", "precious\n", 0600);
    unlink("log.link");
    OK(symlink("precious.txt", "log.link"));
    unlink("graph.out");
    run_child(argv[0], "log_path=log.link:graph_path=graph.out");
    expect_content("precious.txt", "precious\n");
    struct stat st;
    CHECK(lstat("log.link", &st) == 0 && S_ISLNK(st.st_mode));
    if (preloaded) {
        CHECK(stat("graph.out", &st) == 0);
        CHECK((st.st_mode & 0777) == 0600);
        OK(unlink("graph.out"));
    }

    if (geteuid() == 0) { /* a file planted by another user (uid 65534) */
        mkdir("shared", 0777);
        OK(chmod("shared", 01777));
        write_file("shared/planted.log", "", 0666);
        OK(chown("shared/planted.log", 65534, 65534));
        run_child(argv[0], "log_path=shared/planted.log");
        CHECK(stat("shared/planted.log", &st) == 0 && st.st_size == 0);
        OK(unlink("shared/planted.log"));
        OK(rmdir("shared"));
    } else {
        run_child(argv[0], "log_path=/dev/null"); /* keep the report count */
    }
    OK(unlink("log.link"));
    OK(unlink("precious.txt"));
    return 0;
}
