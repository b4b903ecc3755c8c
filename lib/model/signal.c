/*
 * signal.c - signal context of each thread: which handler (if any) is
 * running and which signals are blocked (the entry points that change it
 * are lib/signals.c's).  The context is folded into chain keys (sigctx), so
 * a lock path is checked again only when it runs in a context not seen
 * before; a program that installs no handler keeps sigctx at 0 and pays
 * nothing.
 */
#include "chain.h"
#include "state.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

_Atomic int uld_signal_handlers;

void uld_sigctx_update(struct uld_thread *t)
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
    uld_sigctx_update(t);
}

void uld_sigframe_pop_to(struct uld_thread *t, int depth)
{
    t->blocked = t->sigframe[depth].saved_blocked;
    t->in_signal = t->sigframe[depth].saved_sig;
    t->sig_depth = depth;
}

int uld_in_signal_handler(void)
{
    struct uld_thread *t = uld_self;
    return t && t != ULD_THREAD_DEAD && t->in_signal;
}
