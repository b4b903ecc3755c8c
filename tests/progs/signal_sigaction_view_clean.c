/*
 * signal_sigaction_view_clean.c - the interposed sigaction() must leave
 * the program's view of its signal dispositions exactly as it is
 * natively.  No lock at all: no report.
 *
 * ulockdep installs a trampoline of its own as the kernel-level handler
 * and hands the program back its own handler, flags and mask.  What the
 * program sees natively on x86_64 glibc 2.36: sigaction(S, NULL, &old)
 * returns the handler, the mask and sa_flags *as the kernel stores them*,
 * which includes SA_RESTORER (0x04000000), added by glibc's sigaction()
 * to every installation (it points the kernel at glibc's __restore_rt).
 * So the exact flags read back are SA_RESTART | SA_RESTORER for a handler
 * installed with SA_RESTART, and a save/restore round trip
 * (sigaction(S, &new, &saved) ... sigaction(S, &saved, NULL)) gives back
 * the first handler.  SIG_IGN reads back as SIG_IGN.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* x86_64 kernel ABI; not in glibc's headers */
#endif

static void handler_1(int sig) { (void)sig; }
static void handler_2(int sig, siginfo_t *info, void *ctx) { (void)sig; (void)info; (void)ctx; }

int main(void)
{
    struct sigaction act, saved, cur;
    memset(&act, 0, sizeof(act));
    act.sa_handler = handler_1;
    sigemptyset(&act.sa_mask);
    sigaddset(&act.sa_mask, SIGUSR2);
    act.sa_flags = SA_RESTART;
    OK(sigaction(SIGUSR1, &act, NULL));

    OK(sigaction(SIGUSR1, NULL, &cur));
    CHECK(cur.sa_handler == handler_1);
    CHECK(sigismember(&cur.sa_mask, SIGUSR2) == 1);
    CHECK(cur.sa_flags == (SA_RESTART | SA_RESTORER)); /* exactly as natively */

    memset(&act, 0, sizeof(act));
    act.sa_sigaction = handler_2;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_SIGINFO | SA_NODEFER;
    OK(sigaction(SIGUSR1, &act, &saved)); /* returns handler_1's disposition */
    CHECK(saved.sa_handler == handler_1);
    CHECK(saved.sa_flags == (SA_RESTART | SA_RESTORER));
    OK(sigaction(SIGUSR1, NULL, &cur));
    CHECK(cur.sa_sigaction == handler_2);
    CHECK(cur.sa_flags == (SA_SIGINFO | SA_NODEFER | SA_RESTORER));

    OK(sigaction(SIGUSR1, &saved, NULL)); /* restore */
    OK(sigaction(SIGUSR1, NULL, &cur));
    CHECK(cur.sa_handler == handler_1);
    CHECK(cur.sa_flags == (SA_RESTART | SA_RESTORER));

    act.sa_handler = SIG_IGN;
    act.sa_flags = 0;
    OK(sigaction(SIGUSR1, &act, NULL));
    OK(sigaction(SIGUSR1, NULL, &cur));
    CHECK(cur.sa_handler == SIG_IGN);
    return 0;
}
