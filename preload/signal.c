/*
 * signal.c - handlers and masks.  Every handler installed with sigaction()
 * or signal() runs through a trampoline that tells the validator which
 * signal's handler is running and which signals it blocks; mask changes are
 * mirrored from the wrappers, so the validator never needs a syscall per
 * lock.  The program sees its own handlers, flags and masks unchanged.
 */
#include "real.h"

#include "../lib/hooks.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#define MAX_SIG 64

struct handler_slot {
    _Atomic uintptr_t fn; /* the program's handler; 0 when the disposition is not ours */
    _Atomic int flags;    /* the program's sa_flags */
    _Atomic uint64_t mask;
};

static struct handler_slot slots[MAX_SIG + 1];

/* The first 64 signals of a sigset_t: bit (signo - 1), as in glibc's layout. */
static uint64_t mask64(const sigset_t *set)
{
    uint64_t m;
    memcpy(&m, set, sizeof(m));
    return m;
}

static void trampoline(int sig, siginfo_t *info, void *ctx)
{
    struct handler_slot *s = &slots[sig];
    uintptr_t fn = atomic_load(&s->fn);
    int flags = atomic_load(&s->flags);
    if (!fn)
        return; /* uninstalled while this delivery was on its way */
    if (flags & SA_RESETHAND)
        atomic_store(&s->fn, 0); /* the kernel has already reset the disposition */
    uint64_t blocked = atomic_load(&s->mask) | ((flags & SA_NODEFER) ? 0 : 1ull << (sig - 1));
    uint64_t saved = uld_signal_enter(sig, blocked);
    if (flags & SA_SIGINFO)
        ((void (*)(int, siginfo_t *, void *))fn)(sig, info, ctx);
    else
        ((void (*)(int))fn)(sig);
    uld_signal_leave(saved);
}

static int is_handler(const struct sigaction *act)
{
    return act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
}

ULD_WRAPPER int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
    uld_preload_ensure();
    if (sig < 1 || sig > MAX_SIG)
        return REAL(sigaction)(sig, act, oldact);
    struct handler_slot *s = &slots[sig];
    uintptr_t old_fn = atomic_load(&s->fn);
    int old_flags = atomic_load(&s->flags);
    uint64_t old_mask = atomic_load(&s->mask);
    struct sigaction mine, prev;
    const struct sigaction *use = act;
    if (is_handler(act)) {
        mine = *act;
        mine.sa_sigaction = trampoline;
        mine.sa_flags |= SA_SIGINFO;
        use = &mine;
        /* publish before the kernel can deliver through the trampoline */
        atomic_store(&s->flags, act->sa_flags);
        atomic_store(&s->mask, mask64(&act->sa_mask));
        atomic_store(&s->fn, (act->sa_flags & SA_SIGINFO) ? (uintptr_t)act->sa_sigaction
                                                           : (uintptr_t)act->sa_handler);
    }
    int r = REAL(sigaction)(sig, use, &prev);
    if (r != 0) {
        int e = errno;
        atomic_store(&s->fn, old_fn);
        atomic_store(&s->flags, old_flags);
        atomic_store(&s->mask, old_mask);
        errno = e;
        return r;
    }
    if (act && !is_handler(act))
        atomic_store(&s->fn, 0);
    if (oldact) {
        *oldact = prev;
        if (prev.sa_sigaction == trampoline && old_fn) { /* show the program its own */
            /* the kernel's flags (SA_RESTORER...) as they are, SA_SIGINFO as asked */
            oldact->sa_flags = (prev.sa_flags & ~SA_SIGINFO) | (old_flags & SA_SIGINFO);
            if (old_flags & SA_SIGINFO)
                oldact->sa_sigaction = (void (*)(int, siginfo_t *, void *))old_fn;
            else
                oldact->sa_handler = (void (*)(int))old_fn;
        }
    }
    if (is_handler(act))
        uld_signal_installed(sig);
    return r;
}

/* glibc's signal(): BSD semantics, the signal itself blocked in its handler. */
ULD_WRAPPER sighandler_t signal(int sig, sighandler_t handler)
{
    struct sigaction act, old;
    memset(&act, 0, sizeof(act));
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    if (sig >= 1 && sig <= MAX_SIG)
        sigaddset(&act.sa_mask, sig);
    act.sa_flags = SA_RESTART;
    if (sigaction(sig, &act, &old) < 0)
        return SIG_ERR;
    return old.sa_handler;
}

ULD_WRAPPER int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    uld_preload_ensure();
    int r = REAL(pthread_sigmask)(how, set, old);
    if (r == 0 && set)
        uld_signal_mask_changed(how, mask64(set));
    return r;
}

ULD_WRAPPER int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    uld_preload_ensure();
    int r = REAL(sigprocmask)(how, set, old);
    if (r == 0 && set) {
        int e = errno;
        uld_signal_mask_changed(how, mask64(set));
        errno = e;
    }
    return r;
}
