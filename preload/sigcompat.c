/*
 * sigcompat.c - the older ways to install a handler: signal() and its
 * aliases (bsd_signal, ssignal), sysv_signal() (what signal() is in a
 * strict ISO C program: <signal.h> redirects it to __sysv_signal),
 * sigset(), and siginterrupt(), which changes what later signal() calls
 * install.  glibc implements them on its internal sigaction, which no
 * wrapper sees; here each is rebuilt on the interposed one with glibc's
 * semantics (2.36), so their handlers run through the trampoline too.
 * The old mask calls (sighold, sigrelse, sigblock, sigsetmask) are glibc's
 * own, followed by the validator's mirror of the mask.
 *
 * sigintr mirrors glibc's own record of siginterrupt() (its _sigintr).
 */
#include "real.h"
#include "signals.h"

#include "../lib/hooks.h"

#include <errno.h>
#include <stdatomic.h>

extern sighandler_t bsd_signal(int sig, sighandler_t handler);
extern sighandler_t __sysv_signal(int sig, sighandler_t handler);

static _Atomic uint64_t sigintr; /* bit (signo - 1): siginterrupt(signo, 1) */

static int bad_signal(int sig)
{
    return sig < 1 || sig >= NSIG;
}

/* One installer: handler, flags, and (sig_self) the signal blocked in it. */
static sighandler_t install(int sig, sighandler_t handler, int flags, int sig_self)
{
    if (handler == SIG_ERR || bad_signal(sig)) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction act, old;
    memset(&act, 0, sizeof(act));
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    if (sig_self)
        sigaddset(&act.sa_mask, sig);
    act.sa_flags = flags;
    if (uld_sig_action(sig, &act, &old) < 0)
        return SIG_ERR;
    return old.sa_handler;
}

/* BSD semantics: restarting calls unless siginterrupt() said otherwise. */
static sighandler_t bsd_install(int sig, sighandler_t handler)
{
    int intr = !bad_signal(sig) && (atomic_load(&sigintr) >> (sig - 1) & 1);
    return install(sig, handler, intr ? 0 : SA_RESTART, 1);
}

ULD_WRAPPER sighandler_t signal(int sig, sighandler_t handler)
{
    return bsd_install(sig, handler);
}

ULD_WRAPPER sighandler_t bsd_signal(int sig, sighandler_t handler)
{
    return bsd_install(sig, handler);
}

ULD_WRAPPER sighandler_t ssignal(int sig, sighandler_t handler)
{
    return bsd_install(sig, handler);
}

/* System V semantics: one-shot, not blocked in its handler, no restart. */
static sighandler_t sysv_install(int sig, sighandler_t handler)
{
    return install(sig, handler, (int)(SA_RESETHAND | SA_NODEFER | SA_INTERRUPT), 0);
}

ULD_WRAPPER sighandler_t sysv_signal(int sig, sighandler_t handler)
{
    return sysv_install(sig, handler);
}

ULD_WRAPPER sighandler_t __sysv_signal(int sig, sighandler_t handler)
{
    return sysv_install(sig, handler);
}

/* glibc's siginterrupt() sets the flag on the installed handler itself. */
ULD_WRAPPER int siginterrupt(int sig, int interrupt)
{
    uld_preload_ensure();
    int r = REAL(siginterrupt)(sig, interrupt);
    if (r == 0 && sig >= 1 && sig <= 64) {
        uint64_t bit = 1ull << (sig - 1);
        if (interrupt)
            atomic_fetch_or(&sigintr, bit);
        else
            atomic_fetch_and(&sigintr, ~bit);
    }
    return r;
}

/*
 * sigset(): SIG_HOLD blocks the signal and leaves the handler; anything
 * else installs it (no flags, empty mask) and unblocks the signal.  Either
 * way the answer is SIG_HOLD if the signal was blocked, else the previous
 * disposition.
 */
ULD_WRAPPER sighandler_t sigset(int sig, sighandler_t disp)
{
    sigset_t set, was;
    sigemptyset(&set);
    if (sigaddset(&set, sig) < 0) /* EINVAL, as glibc */
        return SIG_ERR;
    struct sigaction act, old;
    if (disp == SIG_HOLD) {
        if (uld_sig_procmask(SIG_BLOCK, &set, &was) < 0)
            return SIG_ERR;
        if (sigismember(&was, sig))
            return SIG_HOLD;
        if (uld_sig_action(sig, NULL, &old) < 0)
            return SIG_ERR;
        return old.sa_handler;
    }
    memset(&act, 0, sizeof(act));
    act.sa_handler = disp;
    sigemptyset(&act.sa_mask);
    if (uld_sig_action(sig, &act, &old) < 0 || uld_sig_procmask(SIG_UNBLOCK, &set, &was) < 0)
        return SIG_ERR;
    return sigismember(&was, sig) ? SIG_HOLD : old.sa_handler;
}

/* bit (signo - 1), 0 for a signal the mirror does not hold */
static uint64_t sigbit(int sig)
{
    return sig >= 1 && sig <= 64 ? 1ull << (sig - 1) : 0;
}

ULD_WRAPPER int sighold(int sig)
{
    uld_preload_ensure();
    int r = REAL(sighold)(sig);
    if (r == 0)
        uld_signal_mask_changed(SIG_BLOCK, sigbit(sig));
    return r;
}

ULD_WRAPPER int sigrelse(int sig)
{
    uld_preload_ensure();
    int r = REAL(sigrelse)(sig);
    if (r == 0)
        uld_signal_mask_changed(SIG_UNBLOCK, sigbit(sig));
    return r;
}

/* BSD masks: an int of the first 32 signals, bit (signo - 1). */
ULD_WRAPPER int sigblock(int mask)
{
    uld_preload_ensure();
    int e = errno;
    int old = REAL(sigblock)(mask);
    if (errno == e) /* -1 is also a valid old mask: only errno tells a failure */
        uld_signal_mask_changed(SIG_BLOCK, (uint32_t)mask);
    return old;
}

ULD_WRAPPER int sigsetmask(int mask)
{
    uld_preload_ensure();
    int e = errno;
    int old = REAL(sigsetmask)(mask);
    if (errno == e)
        uld_signal_mask_changed(SIG_SETMASK, (uint32_t)mask);
    return old;
}
