/*
 * process.c - start-up, exit, fork and memory release.
 *
 * Start-up is lazy as well as in a constructor: another library's
 * constructor may lock before ours runs, and the first wrapper to run
 * initialises everything.  free() and realloc() end the lifetime of locks
 * inside the block, so reused memory never inherits a dead lock's edges.
 */
#include "real.h"
#include "workers.h"
#include "signals.h"

#include "../lib/hooks.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

int uld_preload_ready;
static _Atomic int init_started;

struct text_query {
    uintptr_t probe, lo, hi;
};

/* The address range of the object containing q->probe. */
static int find_own_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct text_query *q = arg;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    int mine = 0;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
        lo = start < lo ? start : lo;
        hi = end > hi ? end : hi;
        mine |= q->probe >= start && q->probe < end;
    }
    if (mine) {
        q->lo = lo;
        q->hi = hi;
    }
    return mine;
}

/* Threads of the validator itself (the watchdog) bypass the wrapper. */
static int spawn_internal(void *(*fn)(void *), void *arg)
{
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int r = REAL(pthread_create)(&t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return r;
}

static void register_own_atfork(void);

/* At exit: the validator drains its reports and may ask for a failing
 * status (exitcode=N); the real _exit ends the process with it. */
static void process_exit(void)
{
    int status = uld_process_exit();
    if (status >= 0) {
        fflush(NULL);
        REAL(_exit)(status);
    }
}

void uld_preload_init(void)
{
    if (atomic_exchange(&init_started, 1))
        return;
    uld_real_resolve();
    struct uld_platform platform = {spawn_internal, REAL(sigaction)};
    uld_set_platform(&platform);
    struct text_query q = {(uintptr_t)&uld_preload_init, 0, 0};
    dl_iterate_phdr(find_own_object, &q);
    uld_set_own_text(q.lo, q.hi);
    register_own_atfork();
    uld_init();
    uld_kill_watch_install();
    atexit(process_exit);
    uld_preload_ready = 1;
}

__attribute__((constructor(101))) static void preload_constructor(void)
{
    uld_preload_init();
}

/*
 * The validator's fork steps run innermost, next to the real fork: glibc
 * runs prepare handlers in reverse order of registration and parent/child
 * handlers in order, so ours are registered before anyone else's.  The
 * program's handlers take the program's locks, which may need the
 * validator's locks while another thread still holds them: those must not
 * be taken yet when the program's prepare handlers run.
 */
extern void *__dso_handle;
static _Atomic int own_atfork; /* 1: registered, or being registered */

static void register_own_atfork(void)
{
    if (atomic_load_explicit(&own_atfork, memory_order_relaxed) ||
        atomic_exchange(&own_atfork, 1) || !REAL(__register_atfork))
        return;
    REAL(__register_atfork)(uld_fork_prepare, uld_fork_parent, uld_fork_child, __dso_handle);
}

/* pthread_atfork calls this from the program's own module, through the PLT. */
ULD_WRAPPER int __register_atfork(void (*prepare)(void), void (*parent)(void),
                                  void (*child)(void), void *dso)
{
    register_own_atfork();
    if (!REAL(__register_atfork))
        return ENOMEM; /* only while dlsym itself registers: cannot happen */
    return REAL(__register_atfork)(prepare, parent, child, dso);
}

/* Only makes sure the validator (and so its atfork handlers) is set up. */
ULD_WRAPPER pid_t fork(void)
{
    uld_preload_ensure();
    return REAL(fork)();
}

/* Cheap unless the block may hold a tracked lock (a bitmap test). */
static void release_block(void *p, uintptr_t ip)
{
    size_t n = malloc_usable_size(p);
    if (uld_range_may_hold_locks(p, n))
        uld_range_released(p, n, ip);
}

ULD_WRAPPER void free(void *p)
{
    if (__builtin_expect(uld_real.free == NULL, 0)) {
        if (uld_real_resolving())
            return; /* dlsym freeing while we resolve: leak it, it is tiny */
        uld_real_resolve();
    }
    if (p && uld_preload_ready)
        release_block(p, CALLER_IP);
    uld_real.free(p);
}

/*
 * A block holding locks is moved rather than resized: its locks end here
 * and the program gets a fresh block, which realloc may always return.
 */
ULD_WRAPPER void *realloc(void *p, size_t size)
{
    uld_preload_ensure();
    if (!p || !size || !uld_preload_ready)
        return REAL(realloc)(p, size);
    size_t old = malloc_usable_size(p);
    if (!uld_range_may_hold_locks(p, old))
        return REAL(realloc)(p, size);
    void *q = malloc(size);
    if (!q)
        return NULL;
    memcpy(q, p, old < size ? old : size);
    uld_range_released(p, old, CALLER_IP);
    REAL(free)(p);
    return q;
}

/* ---- threads ------------------------------------------------------------ */

struct thread_start {
    void *(*fn)(void *);
    int (*c11_fn)(void *); /* thrd_create's start function, or NULL */
    void *arg;
    struct uld_thread_token token; /* creator, number, creation stack: for reports */
};

static void *thread_trampoline(void *p)
{
    struct thread_start s = *(struct thread_start *)p;
    REAL(free)(p);
    uld_thread_started(&s.token);
    if (s.c11_fn) /* as glibc's C11 threads: the int result is the thread's result */
        return (void *)(intptr_t)s.c11_fn(s.arg);
    return s.fn(s.arg);
}

int uld_thread_create_at(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                         int (*c11_fn)(void *), void *arg, uintptr_t ip)
{
    uld_preload_ensure();
    struct thread_start *s = malloc(sizeof(*s));
    if (!s) {
        if (c11_fn) /* cannot start an int function without our trampoline */
            return ENOMEM;
        return REAL(pthread_create)(thread, attr, fn, arg);
    }
    s->fn = fn;
    s->c11_fn = c11_fn;
    s->arg = arg;
    uld_thread_creating(&s->token, ip);
    int r = REAL(pthread_create)(thread, attr, thread_trampoline, s);
    if (r != 0)
        REAL(free)(s);
    return r;
}

ULD_WRAPPER int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                               void *(*fn)(void *), void *arg)
{
    return uld_thread_create_at(thread, attr, fn, NULL, arg, CALLER_IP);
}

/* ---- modules --------------------------------------------------------- */

/* An unload ends the identities of the module's locks and classes (and of
 * dependencies unloaded with it); the loader says which objects went away
 * only by their absence afterwards, hence the snapshot.  dlclose may fail or
 * leave the module loaded (other references): then nothing is gone. */
ULD_WRAPPER int dlclose(void *handle)
{
    uld_preload_ensure();
    struct uld_modset *before = uld_preload_ready ? uld_modules_before_unload() : NULL;
    int r = REAL(dlclose)(handle);
    int saved = errno;
    uld_modules_after_unload(before);
    errno = saved;
    return r;
}

/* A direct _exit (common in fork children) still reports failure. */
ULD_WRAPPER void _exit(int status)
{
    uld_preload_ensure();
    REAL(_exit)(uld_exit_status(status));
    __builtin_unreachable();
}
