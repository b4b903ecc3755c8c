/*
 * signal.c - signal context of each thread: which handler (if any) is
 * running and which signals are blocked.  Maintained by the interposer's
 * sigaction trampoline and mask wrappers, never by a syscall per lock.  The
 * context is folded into chain keys (sigctx), so a lock path is checked
 * again only when it runs in a context not seen before; a program that
 * installs no handler keeps sigctx at 0 and pays nothing.
 */
#include "chain.h"
#include "core.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

_Atomic int uld_signal_handlers;

static void update_sigctx(struct uld_thread *t)
{
    t->sigctx = (t->blocked || t->in_signal)
                    ? uld_chain_mix(t->blocked, (uint32_t)t->in_signal, 0x1f) | 1
                    : 0;
}

/* The mask a new thread starts with (inherited from its creator). */
void uld_signal_thread_init(struct uld_thread *t)
{
    uint64_t set = 0;
    if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &set, sizeof(set)) == 0)
        t->blocked = set;
    update_sigctx(t);
}

void uld_signal_installed(int sig)
{
    (void)sig;
    atomic_store(&uld_signal_handlers, 1);
}

uint64_t uld_signal_enter(int sig, uint64_t extra_blocked)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return UINT64_MAX;
    uint64_t saved = t->blocked | (uint64_t)t->in_signal << 56;
    t->blocked |= extra_blocked;
    t->in_signal = sig;
    update_sigctx(t);
    uld_leave();
    return saved;
}

void uld_signal_leave(uint64_t saved)
{
    if (saved == UINT64_MAX)
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    t->blocked = saved & ((1ull << 56) - 1);
    t->in_signal = (int)(saved >> 56);
    update_sigctx(t);
    uld_leave();
}

void uld_signal_mask_changed(int how, uint64_t set)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (how == SIG_BLOCK)
        t->blocked |= set;
    else if (how == SIG_UNBLOCK)
        t->blocked &= ~set;
    else
        t->blocked = set;
    /* SIGKILL and SIGSTOP cannot be blocked */
    t->blocked &= ~((1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1)));
    update_sigctx(t);
    uld_leave();
}

int uld_in_signal_handler(void)
{
    struct uld_thread *t = uld_self;
    return t && t != ULD_THREAD_DEAD && t->in_signal;
}
