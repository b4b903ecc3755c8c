/*
 * robust_close_fds.c - a program that closes every inherited descriptor
 * above stderr at start-up (daemons do, with a loop or closefrom()), then
 * opens a file of its own, which gets descriptor 3, and writes to it while
 * a lock-order inversion is reported.
 *
 * The descriptors a preloaded library opened for itself (here the JSON
 * report file, json_path from the runner) are gone after the loop, and the
 * number is reused by the program's file.  The report must still reach
 * json_path (the runner reads it there) and the program's file must hold
 * exactly what the program wrote into it: the program reads it back and
 * compares.  The inversion: lock_a -> lock_b, then lock_b -> lock_a, on
 * the main thread (two threads could deadlock on it): one report.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#include <fcntl.h>
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

int main(void)
{
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    char path[] = "robust_close_fds.XXXXXX"; /* in the runner's scratch directory */
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(write(fd, "before\n", 7) == 7);
    nest(&lock_a, &lock_b);
    nest(&lock_b, &lock_a); /* reported here */
    CHECK(write(fd, "after\n", 6) == 6);

    char buf[256];
    CHECK(lseek(fd, 0, SEEK_SET) == 0);
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    CHECK(n >= 0);
    buf[n] = '\0';
    if (strcmp(buf, "before\nafter\n") != 0)
        fprintf(stderr, "the program's file holds %zd bytes: %.80s\n", n, buf);
    CHECK(strcmp(buf, "before\nafter\n") == 0);
    OK(close(fd));
    OK(unlink(path));
    return 0;
}
