/*
 * signal.c - handlers and masks.  Every handler the program installs (with
 * sigaction() here, or the older installers in sigcompat.c) runs through a
 * trampoline that tells the validator which signal's handler is running,
 * which signals it blocks and where its frame is; mask changes are mirrored
 * from the wrappers, so the validator never needs a syscall per lock.  The
 * program sees its own handlers, flags and masks unchanged.
 */
#include "real.h"
#include "signals.h"

#include "../lib/hooks.h"

#include <errno.h>
#include <stdatomic.h>
#include <ucontext.h>

#define MAX_SIG 64

struct handler_slot {
    _Atomic uintptr_t fn; /* the program's handler; 0 when the disposition is not ours */
    _Atomic int flags;    /* the program's sa_flags */
    _Atomic uint64_t mask;
    /* SA_SIGINFO if the kernel's flags carry it for the trampoline only (it
     * stays there when SA_RESETHAND resets the handler) */
    _Atomic int forced;
};

static struct handler_slot slots[MAX_SIG + 1];

/* The alternate stack's base if sp is on it (ctx: the kernel's ucontext). */
static uintptr_t altstack_base(const void *ctx, uintptr_t sp)
{
    if (!ctx)
        return 0;
    const stack_t *ss = &((const ucontext_t *)ctx)->uc_stack;
    uintptr_t lo = (uintptr_t)ss->ss_sp;
    return sp >= lo && sp - lo < ss->ss_size ? lo : 0;
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
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    int token = uld_signal_enter(sig, blocked, sp, altstack_base(ctx, sp));
    if (flags & SA_SIGINFO)
        ((void (*)(int, siginfo_t *, void *))fn)(sig, info, ctx);
    else
        ((void (*)(int))fn)(sig);
    uld_signal_leave(token);
}

/*
 * The kill-time reports: the asynchronous signals whose default action ends
 * the process (SIGTERM, SIGINT, SIGQUIT, SIGALRM, SIGHUP, SIGUSR1, SIGUSR2)
 * and abort()'s SIGABRT, left at their default action, get our handler
 * (once reset, SA_RESETHAND), which reports the blocked threads and the
 * locks the ending thread holds, and sends the signal again: the default
 * action proceeds as it would have (same status, same core).  The program
 * sees SIG_DFL; a handler or SIG_IGN it installs replaces ours, and SIG_DFL
 * brings ours back.  Not SIGPIPE (it ends `prog | head` writers every day)
 * nor the faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL...): the process state is
 * broken there, and the crash is the report.
 */
static const int kill_signals[] = {SIGTERM, SIGINT, SIGQUIT, SIGALRM,
                                   SIGHUP,  SIGUSR1, SIGUSR2, SIGABRT};
static _Atomic int kill_watched[MAX_SIG + 1];

/* Sent by this very process (raise, abort, kill of its own pid)? */
static int sent_by_self(const siginfo_t *info)
{
    return info && (info->si_code == SI_USER || info->si_code == SI_TKILL ||
                    info->si_code == SI_QUEUE) &&
           info->si_pid == getpid();
}

static void kill_handler(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    int e = errno;
    uld_kill_report(sig, sent_by_self(info));
    raise(sig); /* blocked until we return, then the default action */
    errno = e;
}

static void kill_action(struct sigaction *sa)
{
    memset(sa, 0, sizeof(*sa));
    sa->sa_sigaction = kill_handler;
    sa->sa_flags = SA_SIGINFO | SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa->sa_mask);
}

void uld_kill_watch_install(void)
{
    if (!uld_kill_report_wanted())
        return;
    for (unsigned i = 0; i < sizeof(kill_signals) / sizeof(kill_signals[0]); i++) {
        int sig = kill_signals[i];
        struct sigaction cur, mine;
        if (REAL(sigaction)(sig, NULL, &cur) != 0 || cur.sa_handler != SIG_DFL)
            continue;
        kill_action(&mine);
        if (REAL(sigaction)(sig, &mine, NULL) == 0)
            atomic_store(&kill_watched[sig], 1);
    }
}

static int is_handler(const struct sigaction *act)
{
    return act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
}

/* What the program would see in place of the kernel's view prev. */
static void program_view(struct sigaction *prev, uintptr_t fn, int flags, int forced)
{
    if (prev->sa_sigaction == trampoline && fn) {
        /* the kernel's flags (SA_RESTORER...) as they are, SA_SIGINFO as asked */
        prev->sa_flags = (prev->sa_flags & ~SA_SIGINFO) | (flags & SA_SIGINFO);
        if (flags & SA_SIGINFO)
            prev->sa_sigaction = (void (*)(int, siginfo_t *, void *))fn;
        else
            prev->sa_handler = (void (*)(int))fn;
    } else if (prev->sa_handler == SIG_DFL && (prev->sa_flags & SA_RESETHAND)) {
        prev->sa_flags &= ~forced; /* reset by the kernel: the flags stay as installed */
    }
}

int uld_sig_action(int sig, const struct sigaction *act, struct sigaction *oldact)
{
    uld_preload_ensure();
    if (sig < 1 || sig > MAX_SIG)
        return REAL(sigaction)(sig, act, oldact);
    struct handler_slot *s = &slots[sig];
    uintptr_t old_fn = atomic_load(&s->fn);
    int old_flags = atomic_load(&s->flags);
    uint64_t old_mask = atomic_load(&s->mask);
    int old_forced = atomic_load(&s->forced);
    struct sigaction mine, prev;
    const struct sigaction *use = act;
    if (act && act->sa_handler == SIG_DFL && !(act->sa_flags & SA_SIGINFO) &&
        atomic_load(&kill_watched[sig])) {
        kill_action(&mine); /* the default action, after the kill-time report */
        use = &mine;
    }
    if (is_handler(act)) {
        mine = *act;
        mine.sa_sigaction = trampoline;
        mine.sa_flags |= SA_SIGINFO;
        use = &mine;
        /* publish before the kernel can deliver through the trampoline */
        atomic_store(&s->flags, act->sa_flags);
        atomic_store(&s->mask, uld_mask64(&act->sa_mask));
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
    if (act) {
        if (!is_handler(act))
            atomic_store(&s->fn, 0);
        atomic_store(&s->forced, is_handler(act) && !(act->sa_flags & SA_SIGINFO) ? SA_SIGINFO : 0);
    }
    if (oldact) {
        *oldact = prev;
        if (prev.sa_sigaction == kill_handler) { /* the default action, as far as anyone knows */
            memset(oldact, 0, sizeof(*oldact));
            oldact->sa_handler = SIG_DFL;
        } else {
            program_view(oldact, old_fn, old_flags, old_forced);
        }
    }
    if (is_handler(act))
        uld_signal_installed(sig);
    return r;
}

ULD_WRAPPER int sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
    return uld_sig_action(sig, act, oldact);
}

ULD_WRAPPER int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    uld_preload_ensure();
    int r = REAL(pthread_sigmask)(how, set, old);
    if (r == 0 && set)
        uld_signal_mask_changed(how, uld_mask64(set));
    return r;
}

int uld_sig_procmask(int how, const sigset_t *set, sigset_t *old)
{
    uld_preload_ensure();
    int r = REAL(sigprocmask)(how, set, old);
    if (r == 0 && set) {
        int e = errno;
        uld_signal_mask_changed(how, uld_mask64(set));
        errno = e;
    }
    return r;
}

ULD_WRAPPER int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    return uld_sig_procmask(how, set, old);
}
