/*
 * A program that sandboxes itself with Landlock (no file may be created or
 * written any more, as a compressor does before it touches its input) and
 * then takes lock_a before lock_b.  Its graph dump must still hold that edge
 * and end complete: the file was created at start-up and is written through
 * the descriptor opened then, which the ruleset does not affect.  Without
 * Landlock in the kernel the program says so and is skipped.
 *
 * EXPECT: none
 * EXPECT-GRAPH-EDGE: lock_a lock_b
 * EXPECT-GRAPH-INCOMPLETE: 0
 */
#include "progs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void sandbox(void)
{
    struct landlock_ruleset_attr attr = {
        .handled_access_fs = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_MAKE_REG |
                             LANDLOCK_ACCESS_FS_REMOVE_FILE,
    };
    long fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
    if (fd < 0 && (errno == ENOSYS || errno == EOPNOTSUPP)) {
        fprintf(stderr, "SKIP: this kernel has no Landlock (%s)\n", strerror(errno));
        exit(77);
    }
    CHECK(fd >= 0);
    CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
    CHECK(syscall(SYS_landlock_restrict_self, (int)fd, 0) == 0);
    close((int)fd);
    /* the sandbox holds: no new file can be made */
    CHECK(open("sandboxed.txt", O_WRONLY | O_CREAT, 0600) < 0 && errno == EACCES);
}

int main(void)
{
    sandbox();
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return 0;
}
