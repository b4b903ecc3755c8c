/*
 * signals.c - entry points for signal handlers and masks: the interposer's
 * sigaction trampoline and mask wrappers keep each thread's signal context
 * (model/signal.c) without a syscall per lock.  Each running handler has a
 * frame (sigframe[]) so that a longjmp out of it ends it.
 */
#include "entry.h"

#include <signal.h>

void uld_signal_installed(int sig)
{
    (void)sig;
    atomic_store(&uld_signal_handlers, 1);
}

/* Token 0: not tracked (re-entered the validator, or nested too deep). */
int uld_signal_enter(int sig, uint64_t extra_blocked, uintptr_t sp, uintptr_t alt_lo)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return 0;
    int token = 0;
    if (t->sig_depth < ULD_SIG_NEST) {
        t->sigframe[t->sig_depth] = (struct uld_sigframe){sp, alt_lo, t->blocked, t->in_signal};
        token = ++t->sig_depth;
        t->blocked |= extra_blocked;
        t->in_signal = sig;
        uld_sigctx_update(t);
    }
    uld_leave();
    return token;
}

void uld_signal_leave(int token)
{
    if (!token)
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (token <= t->sig_depth) /* else a jump already left this handler */
        uld_sigframe_pop_to(t, token - 1);
    uld_sigctx_update(t);
    uld_leave();
}

/* Does the handler of frame f still run once the stack pointer is sp? */
static int frame_live(const struct uld_sigframe *f, uintptr_t sp)
{
    return sp < f->sp && (!f->alt_lo || sp >= f->alt_lo);
}

/*
 * A longjmp to a frame at target_sp.  The handlers it leaves end without
 * sigreturn, so the kernel keeps the mask they ran with, unless the jump
 * restores one.  Innermost first: a handler the jump stays in contains
 * every outer one.
 */
void uld_signal_jump(uintptr_t target_sp, int restore_mask, uint64_t mask)
{
    if (!restore_mask && !atomic_load_explicit(&uld_signal_handlers, memory_order_relaxed))
        return; /* no handler was ever installed: nothing to end, no mask to mirror */
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    uint64_t blocked = t->blocked;
    if (target_sp) {
        int d = t->sig_depth;
        while (d > 0 && !frame_live(&t->sigframe[d - 1], target_sp))
            d--;
        if (d < t->sig_depth)
            uld_sigframe_pop_to(t, d);
    }
    t->blocked = restore_mask ? mask : blocked;
    t->blocked &= ~((1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1)));
    uld_sigctx_update(t);
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
    uld_sigctx_update(t);
    uld_leave();
}
