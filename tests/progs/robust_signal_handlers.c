/*
 * robust_signal_handlers.c - a program with signal handlers of its own, of
 * every flavour, must see exactly what it sees natively.
 *
 *   SIGUSR1  sigaction, SA_SIGINFO: gets its siginfo (si_signo, si_code
 *            SI_TKILL from raise(), si_pid) and a ucontext;
 *   SIGUSR2  SA_RESTART | SA_NODEFER: re-raises itself once from inside,
 *            and the nested delivery happens at once (depth 2);
 *   SIGHUP   SA_RESETHAND: runs once, then the disposition is SIG_DFL;
 *   SIGWINCH SA_ONSTACK on a 64 KiB alternate stack: runs on it
 *            (sigaltstack reports SS_ONSTACK) and takes handler_lock (how
 *            small a stack may be: robust_signal_altstack_*.c);
 *   SIGURG   signal(): BSD semantics, returns the previous handler.
 * sigaction(S, NULL, &old) must return exactly what was installed (handler,
 * mask, flags; glibc adds SA_RESTORER, see signal_sigaction_view_clean.c),
 * and after SA_RESETHAND fired exactly what the kernel keeps: SIG_DFL with
 * the flags as installed (checked last).  errno survives a handler.  Masks
 * and sigwait: robust_signal_masks.c.
 *
 * handler_lock is only ever taken inside the SIGWINCH handler: no
 * interrupted context holds it, nothing can deadlock.  No report, and
 * every handler invocation count is checked.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>
#include <unistd.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* x86_64 kernel ABI; not in glibc's headers */
#endif

static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t usr1, usr1_info_ok, usr2, usr2_depth, usr2_max, hup, winch, urg;
static volatile sig_atomic_t winch_on_alt;
static char *alt_base;
static size_t alt_size;

static void on_usr1(int sig, siginfo_t *info, void *uc)
{
    usr1_info_ok = sig == SIGUSR1 && info->si_signo == SIGUSR1 && info->si_code == SI_TKILL &&
                   info->si_pid == getpid() && uc != NULL;
    usr1++;
}

static void on_usr2(int sig)
{
    usr2++;
    if (++usr2_depth > usr2_max)
        usr2_max = usr2_depth;
    if (usr2 == 1)
        raise(sig); /* SA_NODEFER: delivered right here, nested */
    usr2_depth--;
}

static void on_hup(int sig) { hup += sig == SIGHUP; }
static void on_urg(int sig) { urg += sig == SIGURG; }

static void on_winch(int sig)
{
    char here;
    stack_t ss;
    winch_on_alt = &here >= alt_base && &here < alt_base + alt_size &&
                   sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
    OK(pthread_mutex_lock(&handler_lock));
    winch += sig == SIGWINCH;
    OK(pthread_mutex_unlock(&handler_lock));
}

/* Install fn (or info_fn, with SA_SIGINFO) and read it back. */
static void install(int sig, void (*fn)(int), void (*info_fn)(int, siginfo_t *, void *),
                    int flags, int masked)
{
    struct sigaction act = {.sa_flags = flags}, cur;
    act.sa_sigaction = info_fn;
    if (!info_fn)
        act.sa_handler = fn;
    sigemptyset(&act.sa_mask);
    if (masked)
        sigaddset(&act.sa_mask, masked);
    OK(sigaction(sig, &act, NULL));
    OK(sigaction(sig, NULL, &cur)); /* read back: exactly what was installed */
    CHECK(info_fn ? cur.sa_sigaction == info_fn : cur.sa_handler == fn);
    CHECK(cur.sa_flags == (flags | SA_RESTORER));
    CHECK(sigismember(&cur.sa_mask, masked ? masked : SIGINT) == (masked != 0));
}

int main(void)
{
    install(SIGUSR1, NULL, on_usr1, SA_SIGINFO, SIGUSR2);
    install(SIGUSR2, on_usr2, NULL, SA_RESTART | SA_NODEFER, 0);
    install(SIGHUP, on_hup, NULL, (int)SA_RESETHAND, SIGTERM);
    alt_size = 64 * 1024;
    CHECK((alt_base = malloc(alt_size)) != NULL);
    OK(sigaltstack(&(stack_t){.ss_sp = alt_base, .ss_size = alt_size}, NULL));
    install(SIGWINCH, on_winch, NULL, SA_ONSTACK | SA_RESTART, 0);
    CHECK(signal(SIGURG, on_urg) == SIG_DFL);
    CHECK(signal(SIGURG, on_urg) == on_urg);
    struct sigaction cur;
    OK(sigaction(SIGURG, NULL, &cur));
    CHECK(cur.sa_handler == on_urg && cur.sa_flags == (SA_RESTART | SA_RESTORER));
    CHECK(sigismember(&cur.sa_mask, SIGURG) == 1);

    errno = 4242;
    OK(raise(SIGUSR1));
    CHECK(errno == 4242 && usr1 == 1 && usr1_info_ok);
    OK(raise(SIGUSR2));
    CHECK(usr2 == 2 && usr2_max == 2 && usr2_depth == 0);
    OK(raise(SIGHUP));
    CHECK(hup == 1);
    for (int i = 0; i < 3; i++)
        OK(raise(SIGWINCH));
    CHECK(winch == 3 && winch_on_alt);
    OK(raise(SIGURG));
    CHECK(urg == 1);

    OK(sigaction(SIGHUP, NULL, &cur)); /* SA_RESETHAND: back to the default, flags kept */
    CHECK(cur.sa_handler == SIG_DFL);
    if (cur.sa_flags != (int)(SA_RESETHAND | SA_RESTORER))
        fprintf(stderr, "SIGHUP flags after SA_RESETHAND: %#x\n", (unsigned)cur.sa_flags);
    CHECK(cur.sa_flags == (int)(SA_RESETHAND | SA_RESTORER));
    return 0;
}
