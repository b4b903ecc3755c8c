/*
 * sys.c - raw primitives the validator builds on: a futex mutex, the
 * thread id, output with write(2).  Nothing here calls into pthreads,
 * stdio or malloc, so it is safe from any interposed call and from signal
 * handlers.
 */
#include "internal.h"
#include "output.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static __thread int tid_cache __attribute__((tls_model("initial-exec")));

int uld_gettid(void)
{
    if (unlikely(tid_cache == 0))
        tid_cache = (int)syscall(SYS_gettid);
    return tid_cache;
}

void uld_tid_reset(void)
{
    tid_cache = 0;
}

/*
 * Read a word that may lie in memory freed and unmapped since: the kernel
 * copies it (EFAULT instead of a crash).  Where process_vm_readv is refused
 * (a seccomp filter), rt_sigprocmask with an invalid `how` says whether it is
 * readable (the rare unmap in between is the only risk left).
 */
int uld_read_word(const uint64_t *p, uint64_t *out)
{
    struct iovec local = {out, sizeof(*out)}, remote = {(void *)p, sizeof(*p)};
    int saved = errno;
    long n = syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0);
    int ok = n == (long)sizeof(*out);
    if (n < 0 && errno != EFAULT && errno != ESRCH &&
        !(syscall(SYS_rt_sigprocmask, -1, p, NULL, 8) != 0 && errno == EFAULT)) {
        *out = __atomic_load_n(p, __ATOMIC_RELAXED);
        ok = 1;
    }
    errno = saved;
    return ok;
}

static void futex_wait(_Atomic int *addr, int val)
{
    syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_one(_Atomic int *addr)
{
    syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/*
 * Drepper's three-state futex mutex, made re-entrant for its owner: the
 * validator's atfork handlers hold its locks across fork(), and a signal
 * handler may run on the forking thread in between.
 */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* How long a thread spins for a validator lock before it sleeps: its holders
 * keep it for a few hundred instructions (a record made, a chain checked),
 * much less than a futex sleep and wake-up, which would also put the holder
 * behind the sleeper on a busy CPU. */
#define SPINS 100

void uld_mutex_lock(struct uld_mutex *m)
{
    int self = uld_gettid();
    if (atomic_load_explicit(&m->owner, memory_order_relaxed) == self) {
        m->depth++;
        return;
    }
    int c = 0;
    if (atomic_compare_exchange_strong(&m->state, &c, 1))
        goto owned;
    for (int i = 0; i < SPINS && c == 1; i++) { /* held, nobody asleep: spin */
        cpu_relax();
        c = atomic_load_explicit(&m->state, memory_order_relaxed);
        if (c == 0 && atomic_compare_exchange_strong(&m->state, &c, 1))
            goto owned;
    }
    if (c != 2)
        c = atomic_exchange(&m->state, 2);
    while (c != 0) {
        futex_wait(&m->state, 2);
        c = atomic_exchange(&m->state, 2);
    }
owned:
    atomic_store_explicit(&m->owner, self, memory_order_relaxed);
    m->depth = 1;
}

int uld_mutex_trylock(struct uld_mutex *m)
{
    int self = uld_gettid();
    if (atomic_load_explicit(&m->owner, memory_order_relaxed) == self) {
        m->depth++;
        return 1;
    }
    int c = 0;
    if (!atomic_compare_exchange_strong(&m->state, &c, 1))
        return 0;
    atomic_store_explicit(&m->owner, self, memory_order_relaxed);
    m->depth = 1;
    return 1;
}

int uld_mutex_lock_bounded(struct uld_mutex *m, int ms)
{
    for (int i = 0; i < ms; i++) {
        if (uld_mutex_trylock(m))
            return 1;
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return uld_mutex_trylock(m);
}

void uld_mutex_unlock(struct uld_mutex *m)
{
    if (--m->depth > 0)
        return;
    atomic_store_explicit(&m->owner, 0, memory_order_relaxed);
    if (atomic_fetch_sub(&m->state, 1) != 1) {
        atomic_store(&m->state, 0);
        futex_wake_one(&m->state);
    }
}

/* In a fork child the owner (if any) was the forking thread, now gone. */
void uld_mutex_reset(struct uld_mutex *m)
{
    atomic_store(&m->state, 0);
    atomic_store(&m->owner, 0);
    m->depth = 0;
}

void uld_write_all(int fd, const char *p, size_t n)
{
    int saved = errno;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        p += w;
        n -= (size_t)w;
    }
    errno = saved;
}

/* One line on stderr, prefixed "ulockdep: ". */
void uld_warn(const char *fmt, ...)
{
    char mem[512];
    struct uld_buf b;
    va_list ap;
    uld_buf_init(&b, mem, sizeof(mem), -1);
    uld_buf_puts(&b, "ulockdep: ");
    va_start(ap, fmt);
    uld_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    if (b.len >= sizeof(mem) - 1)
        b.len = sizeof(mem) - 2;
    b.data[b.len++] = '\n';
    uld_output_write(ULD_OUT_STDERR, b.data, b.len);
}

_Atomic int uld_aborting;

void uld_abort(void)
{
    atomic_store(&uld_aborting, 1);
    abort();
}

void uld_assert_fail(const char *expr, const char *file, int line)
{
    uld_warn("internal error: assertion '%s' failed at %s:%d", expr, file, line);
    uld_abort();
}

uint64_t uld_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC to the last tick (a few ms): a few loads from the vDSO,
 * no time-counter read, for stamps taken on lock paths. */
uint64_t uld_now_coarse_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
