/*
 * internal.h - limits, shared types and cross-file declarations of the
 * validator.  Nothing here is visible outside libulockdep.so.
 *
 * Locking overview (see docs/design.md):
 *   graph_lock   classes, edges, chain-cache inserts, stack depot, reports' data
 *   arena lock   the allocator (taken inside graph_lock, never the reverse)
 *   thread_lock  the registry of per-thread states
 *   report lock  emission (symbolisation and output); never held with graph_lock
 * All are uld_mutex (futex based), never pthread locks, so the validator can
 * never wait on a lock it is validating.
 */
#ifndef ULD_INTERNAL_H
#define ULD_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ULD_HIDDEN __attribute__((visibility("hidden")))
#define ULD_EXPORT __attribute__((visibility("default")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ULD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- limits (defaults; the tunable ones have options) ---------------- */
#define ULD_MAX_HELD 1024          /* locks one thread can hold and be tracked */
#define ULD_MAX_FRAMES 48          /* frames kept per stack trace */
#define ULD_MAX_GATES 4            /* gate locks remembered per edge */
#define ULD_MAX_CYCLE 64           /* longest cycle a report prints */
#define ULD_BFS_QUEUE (1u << 17)   /* bounded breadth-first search */
#define ULD_NUM_SUBCLASSES 8       /* subclass 0 .. ULD_MAX_SUBCLASS */

/* ---- assertions: cheap ones always, expensive ones in debug builds --- */
void uld_assert_fail(const char *expr, const char *file, int line) ULD_HIDDEN
    __attribute__((noreturn));
#define ULD_ASSERT(e) ((e) ? (void)0 : uld_assert_fail(#e, __FILE__, __LINE__))
#ifdef ULD_DEBUG
#define ULD_DASSERT(e) ULD_ASSERT(e)
#else
#define ULD_DASSERT(e) ((void)0)
#endif
/* Evaluates to cond; prints one warning the first time it is true. */
#define ULD_WARN_ONCE(cond, ...)                                      \
    ({                                                                \
        static _Atomic int uld_warned_;                               \
        int uld_c_ = !!(cond);                                        \
        if (unlikely(uld_c_) && !atomic_exchange(&uld_warned_, 1))    \
            uld_warn(__VA_ARGS__);                                    \
        uld_c_;                                                       \
    })

/* ---- sys.c: raw primitives that never re-enter the program ---------- */
struct uld_mutex {
    _Atomic int state; /* 0 free, 1 locked, 2 locked with waiters */
    _Atomic int owner; /* tid, so fork's prepare step can re-enter */
    int depth;
};
void uld_mutex_lock(struct uld_mutex *m) ULD_HIDDEN;
int uld_mutex_trylock(struct uld_mutex *m) ULD_HIDDEN;
/* Trylock for up to ms milliseconds (where waiting for ever is not safe). */
int uld_mutex_lock_bounded(struct uld_mutex *m, int ms) ULD_HIDDEN;
void uld_mutex_unlock(struct uld_mutex *m) ULD_HIDDEN;
void uld_mutex_reset(struct uld_mutex *m) ULD_HIDDEN;
int uld_gettid(void) ULD_HIDDEN;
void uld_tid_reset(void) ULD_HIDDEN;            /* in a fork child */
void uld_write_all(int fd, const char *p, size_t n) ULD_HIDDEN;
void uld_warn(const char *fmt, ...) ULD_HIDDEN __attribute__((format(printf, 1, 2)));
uint64_t uld_now_ns(void) ULD_HIDDEN;
/* *p into *out unless p is unreadable (0); safe on memory unmapped meanwhile. */
int uld_read_word(const uint64_t *p, uint64_t *out) ULD_HIDDEN;
uint64_t uld_now_coarse_ns(void) ULD_HIDDEN;
/* abort() on the validator's own behalf (halt_on_error, watchdog_abort, an
 * internal assertion): the kill-time reports stay quiet for that SIGABRT. */
extern _Atomic int uld_aborting ULD_HIDDEN;
void uld_abort(void) ULD_HIDDEN __attribute__((noreturn));

/* ---- arena.c: the validator's own allocator (mmap based) ------------ */
void *uld_alloc(size_t size) ULD_HIDDEN;        /* zeroed; NULL when out of memory */
void uld_free(void *p, size_t size) ULD_HIDDEN;
char *uld_strdup(const char *s) ULD_HIDDEN;
void *uld_map(size_t size) ULD_HIDDEN;          /* page-granular, zeroed, NORESERVE */
void uld_unmap(void *p, size_t size) ULD_HIDDEN;
size_t uld_arena_bytes(void) ULD_HIDDEN;
void uld_arena_after_fork_child(void) ULD_HIDDEN;

/* ---- bigstack.c: heavy work off the program's (maybe small) stack ---- */
void uld_bigstack_init(void) ULD_HIDDEN;      /* maps the stacks; not in a handler */
void uld_bigstack_run(void (*fn)(void *), void *arg) ULD_HIDDEN; /* in place if none free */
void uld_bigstack_after_fork_child(void) ULD_HIDDEN;

/* ---- fmt.c: formatting without malloc -------------------------------- */
struct uld_buf {
    char *data;
    size_t len, cap;
    int fd;        /* flushed here when full; -1: truncate instead */
};
void uld_buf_init(struct uld_buf *b, char *mem, size_t cap, int fd) ULD_HIDDEN;
void uld_buf_putc(struct uld_buf *b, char c) ULD_HIDDEN;
void uld_buf_puts(struct uld_buf *b, const char *s) ULD_HIDDEN;
void uld_buf_printf(struct uld_buf *b, const char *fmt, ...) ULD_HIDDEN
    __attribute__((format(printf, 2, 3)));
void uld_buf_vprintf(struct uld_buf *b, const char *fmt, va_list ap) ULD_HIDDEN;
void uld_buf_json_str(struct uld_buf *b, const char *s) ULD_HIDDEN; /* quoted, escaped; null if s==NULL */
void uld_buf_flush(struct uld_buf *b) ULD_HIDDEN;
const char *uld_buf_cstr(struct uld_buf *b) ULD_HIDDEN; /* NUL-terminated view */
int uld_snprintf(char *dst, size_t n, const char *fmt, ...) ULD_HIDDEN
    __attribute__((format(printf, 3, 4)));

#endif /* ULD_INTERNAL_H */
