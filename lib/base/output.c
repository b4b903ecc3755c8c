/*
 * output.c - the validator's output descriptors: how they are created,
 * when they are held, and what happens when one fails.
 *
 * Files are created only when the first line is written to them (a process
 * that reports nothing holds no descriptor), with O_NOFOLLOW (a symbolic
 * link in the last component is refused unless follow_links=1), O_NOCTTY,
 * O_CLOEXEC, O_NONBLOCK (a FIFO nobody reads never blocks the program: the
 * open fails with ENXIO, a full one fails the write) and mode 0600.  An
 * existing regular file that another user owns in a sticky world-writable
 * directory (/tmp) is refused: someone else put it there.  The descriptor
 * is then moved to a high number, out of the way of the program's
 * lowest-free allocations.
 *
 * A program may close descriptors it did not open (daemons close everything
 * above stderr, some close stderr itself) and the next open() reuses the
 * number: writing to a remembered number would then put reports into the
 * program's data.  So each output remembers the identity (st_dev, st_ino) of
 * its file; a write first checks the number still names that file, and a
 * file that was lost is reopened by path.  Stderr is the program's: if fd 2
 * is no longer the file it was at start-up, nothing is written there.
 *
 * The first failure of an output (cannot create, write error, full disk,
 * full FIFO, reader gone: SIGPIPE is held off) is said once on stderr; from
 * then on the human reports go to stderr and the JSON output is dropped.
 * Only async-signal-safe calls (open, fstat, fcntl, write, close).
 */
#include "output.h"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define OUT_PATH_MAX 4096
#define HIGH_FD_CAP 4096 /* the kernel sizes the fd table by the highest number */

struct output {
    _Atomic int fd;      /* -1: none (yet) */
    _Atomic int failed;  /* said once; not written again */
    int is_pipe;         /* FIFO or socket: a write can raise SIGPIPE */
    dev_t dev;           /* identity at open; changed only under reopen_lock */
    ino_t ino;
    const char *option;  /* for messages */
    char path[OUT_PATH_MAX]; /* absolute; empty: no file (stderr, or no JSON) */
};

static struct output outputs[ULD_OUT_N] = {
    [ULD_OUT_STDERR] = { .fd = 2, .option = "stderr" }, /* unchecked until uld_output_init() */
    [ULD_OUT_LOG] = { .fd = -1, .option = "log_path" },
    [ULD_OUT_JSON] = { .fd = -1, .option = "json_path" },
    [ULD_OUT_GRAPH] = { .fd = -1, .option = "graph_path" },
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

/* Move a fresh descriptor high up, close-on-exec; keep it where it is if that fails. */
int uld_fd_move_high(int fd)
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

/* A regular file someone else owns, in a sticky world-writable directory. */
static int planted(int fd, const char *path)
{
    struct stat st, dir;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid == geteuid())
        return 0;
    char parent[OUT_PATH_MAX] = ".";
    const char *slash = strrchr(path, '/');
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path); /* "/x": "/" */
        if (n >= sizeof(parent))
            return 1;
        memcpy(parent, path, n);
        parent[n] = '\0';
    }
    return stat(parent, &dir) != 0 || ((dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH));
}

int uld_output_create(const char *path, int truncate)
{
    int flags = O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | (truncate ? 0 : O_APPEND) |
                (uld_config.follow_links ? 0 : O_NOFOLLOW);
    int fd = open(path, flags | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno == EEXIST) {
        fd = open(path, flags);
        if (fd >= 0 && planted(fd, path)) {
            close(fd);
            errno = EPERM;
            return -1;
        }
        struct stat st;
        if (fd >= 0 && truncate && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            ftruncate(fd, 0) != 0) {
            close(fd);
            return -1;
        }
    }
    return fd < 0 ? -1 : uld_fd_move_high(fd);
}

/* The one line saying why an output cannot be created. */
void uld_output_open_failed(const char *option, const char *path, int err, const char *then)
{
    const char *why = err == ELOOP ? "a symbolic link; set follow_links=1 to write through it"
                      : err == ENXIO ? "a FIFO with no reader"
                      : err == EPERM ? "a file another user owns in a world-writable directory"
                                     : strerror(err);
    uld_warn("cannot open %s '%s' (%s); %s", option, path, why, then);
}

static const char *fallback(enum uld_out which)
{
    return which == ULD_OUT_LOG    ? "reports go to stderr"
           : which == ULD_OUT_GRAPH ? "no graph written"
                                    : "no JSON output";
}

static int open_at(struct output *o, int create)
{
    int fd = create ? uld_output_create(o->path, 0)
                    : open(o->path, O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC |
                                        (uld_config.follow_links ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return -1;
    if (!create)
        fd = uld_fd_move_high(fd);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    o->dev = st.st_dev;
    o->ino = st.st_ino;
    o->is_pipe = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
    return fd;
}

void uld_output_init(void)
{
    struct stat st;
    struct output *o = &outputs[ULD_OUT_STDERR];
    if (fstat(2, &st) == 0) {
        o->dev = st.st_dev;
        o->ino = st.st_ino;
        o->is_pipe = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
    } else {
        atomic_store(&o->fd, -1); /* closed at start: a later fd 2 is the program's */
    }
    atomic_store(&stderr_known, 1);
}

int uld_output_open(enum uld_out which, const char *path)
{
    struct output *o = &outputs[which];
    size_t n = 0;
    if (path[0] != '/') { /* the program may chdir before the first report */
        if (!getcwd(o->path, sizeof(o->path) - 1))
            return -1;
        n = strlen(o->path);
        o->path[n++] = '/';
    }
    if (n + strlen(path) >= sizeof(o->path)) {
        o->path[0] = '\0';
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(o->path + n, path);
    return 0;
}

int uld_output_reopen(enum uld_out which, const char *path)
{
    struct output *o = &outputs[which];
    int old = atomic_exchange(&o->fd, -1);
    if (old >= 0 && same_file(old, o->dev, o->ino))
        close(old); /* ours: the child's copy of the parent's descriptor */
    atomic_store(&o->failed, 0);
    return uld_output_open(which, path);
}

/* An output that cannot be used any more: say so once. */
static void fail(enum uld_out which, int err, int opening)
{
    struct output *o = &outputs[which];
    if (which == ULD_OUT_STDERR || atomic_exchange(&o->failed, 1))
        return;
    if (opening)
        uld_output_open_failed(o->option, o->path, err, fallback(which));
    else
        uld_warn("cannot write to %s '%s' (%s); %s from now on", o->option, o->path,
                 err ? strerror(err) : "short write", fallback(which));
}

/* First use: create the file (under reopen_lock), or fail once. */
static int first_open(enum uld_out which)
{
    struct output *o = &outputs[which];
    if (!uld_mutex_trylock(&reopen_lock))
        return -1; /* another thread (or the code we interrupted) is at it */
    int fd = atomic_load(&o->fd);
    if (fd < 0 && !atomic_load(&o->failed)) {
        fd = open_at(o, 1);
        if (fd < 0)
            fail(which, errno, 1);
        atomic_store(&o->fd, fd);
        if (fd >= 0 && (which == ULD_OUT_LOG || which == ULD_OUT_JSON))
            uld_procfile_header(which == ULD_OUT_JSON, fd); /* names the process */
    }
    uld_mutex_unlock(&reopen_lock);
    return fd;
}

/* The descriptor lost its file: reopen (not create) by path, once per loss. */
static int reopen(struct output *o, int old)
{
    if (!uld_mutex_trylock(&reopen_lock))
        return -1;
    int fd = atomic_load(&o->fd);
    if (fd == old && !same_file(fd, o->dev, o->ino)) {
        /* old is not ours any more: never close it. */
        fd = open_at(o, 0);
        atomic_store(&o->fd, fd);
    }
    uld_mutex_unlock(&reopen_lock);
    return fd;
}

/* Which output really receives `which`'s text: a log that is not usable is stderr. */
static enum uld_out route(enum uld_out which)
{
    struct output *o = &outputs[which];
    if (which == ULD_OUT_LOG && (!o->path[0] || atomic_load(&o->failed)))
        return ULD_OUT_STDERR;
    return which;
}

int uld_output_fd(enum uld_out which)
{
    which = route(which);
    struct output *o = &outputs[which];
    int saved = errno;
    int fd = atomic_load(&o->fd);
    if (which == ULD_OUT_STDERR) {
        if (fd >= 0 && atomic_load(&stderr_known) && !same_file(fd, o->dev, o->ino))
            fd = -1; /* closed or replaced by the program: not ours to write */
    } else if (!o->path[0] || atomic_load(&o->failed)) {
        fd = -1;
    } else if (fd < 0) {
        fd = first_open(which);
    } else if (!same_file(fd, o->dev, o->ino)) {
        fd = reopen(o, fd);
    }
    errno = saved;
    if (fd < 0 && route(which) != which) /* the log just failed to open */
        return uld_output_fd(ULD_OUT_STDERR);
    return fd;
}

/* write(2) all of it; 0, or the errno of the failure (EAGAIN: a full FIFO). */
static int write_fully(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The same without raising SIGPIPE when the reader has gone: the signal
 * is blocked in this thread for the write and, if the write raised it,
 * taken back (unless it was already pending for the program). */
static int write_no_sigpipe(int fd, const char *p, size_t n)
{
    uint64_t pipe_set = 1ull << (SIGPIPE - 1), old, pending = 0;
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &pipe_set, &old, sizeof(old));
    syscall(SYS_rt_sigpending, &pending, sizeof(pending));
    int err = write_fully(fd, p, n);
    if (err == EPIPE && !(pending & pipe_set)) {
        struct timespec zero = {0, 0};
        syscall(SYS_rt_sigtimedwait, &pipe_set, NULL, &zero, sizeof(pipe_set));
    }
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof(old));
    return err;
}

void uld_output_write_fd(enum uld_out which, int fd, const char *p, size_t n)
{
    which = route(which);
    if (fd < 0 || n == 0)
        return;
    int saved = errno;
    int err = outputs[which].is_pipe ? write_no_sigpipe(fd, p, n) : write_fully(fd, p, n);
    if (err) {
        fail(which, err, 0);
        if (which == ULD_OUT_LOG) /* this report too goes to stderr */
            uld_output_write(ULD_OUT_STDERR, p, n);
    }
    errno = saved;
}

void uld_output_write(enum uld_out which, const char *p, size_t n)
{
    uld_output_write_fd(which, uld_output_fd(which), p, n);
}
