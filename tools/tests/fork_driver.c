/*
 * fork_driver.c - a test driver in the style of acutest (nng's tests): it
 * forks a child per case and counts only exit status 1 as a failure, so a
 * child that exits 66 (ulockdep's exitcode) "passes".  Used by cli_test.py
 * for `ulockdep run`'s verdict and --skip.
 *
 *   fork_driver cases         case 1: an ABBA on case_a/case_b; case 2: clean
 *   fork_driver self-then-cases
 *                             an ABBA of its own on self_a/self_b (a test
 *                             driver's locks), then runs `fork_driver cases`
 * Prints "N of 2 cases failed" and exits 0 unless a case exited 1.
 */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t case_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t case_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t self_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t self_b = PTHREAD_MUTEX_INITIALIZER;

static void nest(pthread_mutex_t *a, pthread_mutex_t *b)
{
    pthread_mutex_lock(a);
    pthread_mutex_lock(b);
    pthread_mutex_unlock(b);
    pthread_mutex_unlock(a);
}

static int run_cases(void)
{
    int failed = 0;
    for (int c = 1; c <= 2; c++) {
        pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (pid == 0) {
            if (c == 1) {
                nest(&case_a, &case_b);
                nest(&case_b, &case_a);
            }
            exit(0);
        }
        int status;
        if (waitpid(pid, &status, 0) != pid)
            return 2;
        failed += WIFEXITED(status) && WEXITSTATUS(status) == 1;
    }
    printf("%d of 2 cases failed\n", failed);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "cases"))
        return run_cases();
    if (argc > 1 && !strcmp(argv[1], "self-then-cases")) {
        nest(&self_a, &self_b);
        nest(&self_b, &self_a);
        pid_t pid = fork();
        if (pid == 0) {
            execl("/proc/self/exe", "fork_driver", "cases", (char *)NULL);
            _exit(127);
        }
        int status;
        if (pid < 0 || waitpid(pid, &status, 0) != pid)
            return 2;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
    }
    fprintf(stderr, "usage: fork_driver cases|self-then-cases\n");
    return 2;
}
