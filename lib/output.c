/*
 * output.c - the validator's output descriptors, checked before each write.
 *
 * A program may close descriptors it did not open (daemons close everything
 * above stderr, some close stderr itself) and the next open() reuses the
 * number: writing to a remembered number would then put reports into the
 * program's data.  So each output remembers the identity (st_dev, st_ino) of
 * its file; a write first checks the number still names that file.  A log or
 * JSON file that was lost is reopened by path and moved to a high number, out
 * of the way of the program's lowest-free allocations.  Stderr is the
 * program's: if fd 2 is no longer the file it was at start-up, nothing is
 * written there.  Only async-signal-safe calls (fstat, open, fcntl, close).
 */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_PATH_MAX 4096
#define HIGH_FD_CAP 4096 /* the kernel sizes the fd table by the highest number */

struct output {
    _Atomic int fd;      /* -1: none */
    dev_t dev;           /* identity at open; changed only under reopen_lock */
    ino_t ino;
    char path[OUT_PATH_MAX]; /* absolute, for reopening; empty for stderr */
};

static struct output outputs[ULD_OUT_N] = {
    [ULD_OUT_STDERR] = { .fd = 2 }, /* unchecked until uld_output_init() */
    [ULD_OUT_LOG] = { .fd = -1 },
    [ULD_OUT_JSON] = { .fd = -1 },
    [ULD_OUT_GRAPH] = { .fd = -1 },
};
static _Atomic int stderr_known; /* identity of fd 2 recorded */
static struct uld_mutex reopen_lock;

static int same_file(int fd, dev_t dev, ino_t ino)
{
    struct stat st;
    return fstat(fd, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

/* Below the soft descriptor limit, so F_DUPFD cannot fail on it. */
static int high_fd_base(void)
{
    struct rlimit rl;
    rlim_t lim = 256;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        lim = rl.rlim_cur;
    if (lim > HIGH_FD_CAP)
        lim = HIGH_FD_CAP;
    return lim > 128 ? (int)lim - 64 : 3;
}

/* Move a fresh descriptor high up; keep it where it is if that fails. */
static int move_high(int fd)
{
    int base = high_fd_base();
    if (fd >= base)
        return fd;
    int hi = fcntl(fd, F_DUPFD_CLOEXEC, base);
    if (hi < 0)
        return fd;
    close(fd);
    return hi;
}

static int open_at(struct output *o, int flags)
{
    int fd = open(o->path, flags, 0644);
    if (fd < 0)
        return -1;
    fd = move_high(fd);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    o->dev = st.st_dev;
    o->ino = st.st_ino;
    return fd;
}

void uld_output_init(void)
{
    struct stat st;
    struct output *o = &outputs[ULD_OUT_STDERR];
    if (fstat(2, &st) == 0) {
        o->dev = st.st_dev;
        o->ino = st.st_ino;
    } else {
        atomic_store(&o->fd, -1); /* closed at start: a later fd 2 is the program's */
    }
    atomic_store(&stderr_known, 1);
}

int uld_output_open(enum uld_out which, const char *path)
{
    struct output *o = &outputs[which];
    size_t n = 0;
    if (path[0] != '/') { /* the program may chdir before we reopen */
        if (!getcwd(o->path, sizeof(o->path) - 1))
            return -1;
        n = strlen(o->path);
        o->path[n++] = '/';
    }
    if (n + strlen(path) >= sizeof(o->path))
        return -1;
    strcpy(o->path + n, path);
    int fd = open_at(o, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        o->path[0] = '\0'; /* a log falls back to stderr */
    atomic_store(&o->fd, fd);
    return fd;
}

int uld_output_reopen(enum uld_out which, const char *path)
{
    struct output *o = &outputs[which];
    int old = atomic_exchange(&o->fd, -1);
    if (old >= 0 && same_file(old, o->dev, o->ino))
        close(old); /* ours: the child's copy of the parent's descriptor */
    return uld_output_open(which, path);
}

/* The descriptor lost its file: reopen (not create) by path, once per loss. */
static int reopen(struct output *o, int old)
{
    if (!uld_mutex_trylock(&reopen_lock))
        return -1; /* another thread (or the code we interrupted) is at it */
    int fd = atomic_load(&o->fd);
    if (fd == old && !same_file(fd, o->dev, o->ino)) {
        /* old is not ours any more: never close it. */
        fd = open_at(o, O_WRONLY | O_APPEND | O_CLOEXEC);
        atomic_store(&o->fd, fd);
    }
    uld_mutex_unlock(&reopen_lock);
    return fd;
}

int uld_output_fd(enum uld_out which)
{
    struct output *o = &outputs[which];
    if (which == ULD_OUT_LOG && atomic_load(&o->fd) < 0 && !o->path[0])
        o = &outputs[ULD_OUT_STDERR]; /* no log_path: reports go to stderr */
    int saved = errno;
    int fd = atomic_load(&o->fd);
    if (fd >= 0 && o == &outputs[ULD_OUT_STDERR]) {
        if (atomic_load(&stderr_known) && !same_file(fd, o->dev, o->ino))
            fd = -1; /* closed or replaced by the program: not ours to write */
    } else if (fd >= 0 && !same_file(fd, o->dev, o->ino)) {
        fd = reopen(o, fd);
    }
    errno = saved;
    return fd;
}

void uld_output_write(enum uld_out which, const char *p, size_t n)
{
    int fd = uld_output_fd(which);
    if (fd >= 0)
        uld_write_all(fd, p, n);
}
