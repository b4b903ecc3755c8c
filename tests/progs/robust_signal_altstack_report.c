/*
 * robust_signal_altstack_report.c - a report produced inside a signal
 * handler that runs on an alternate signal stack (sigaltstack, SA_ONSTACK)
 * of the size glibc recommends, SIGSTKSZ.
 *
 * stats_lock is taken by main with SIGUSR1 unblocked, then by the SIGUSR1
 * handler: if the signal arrived while main held stats_lock, the handler
 * would block on it forever on main's own thread, so this is a
 * signal-unsafe-lock (as in signal_unsafe_lock.c), and the validator finds
 * it at the handler's acquisition, so it builds the report (stack capture,
 * symbolisation, formatting) on the handler's stack.  Programs put their
 * handlers on small alternate stacks (SIGSTKSZ is what the manual pages
 * recommend; 14528 bytes on this machine's glibc, part of it taken by the
 * kernel's signal frame), so the validator must not need more stack than
 * that: the program must not crash, the handler must complete, and the
 * report must come out.  The handler checks it runs on the alternate
 * stack; the counts are checked.
 *
 * EXPECT: signal-unsafe-lock stats_lock
 */
#include "progs.h"

#include <signal.h>
#include <unistd.h>

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled, on_alt;
static char *alt_base;
static size_t alt_size;
static long stats;

static void on_usr1(int sig)
{
    char here;
    on_alt = &here >= alt_base && &here < alt_base + alt_size;
    OK(pthread_mutex_lock(&stats_lock)); /* reported here, on the alternate stack */
    stats += sig == SIGUSR1;
    OK(pthread_mutex_unlock(&stats_lock));
    handled++;
}

int main(void)
{
    alt_size = SIGSTKSZ;
    alt_base = malloc(alt_size);
    CHECK(alt_base != NULL);
    stack_t ss = {.ss_sp = alt_base, .ss_size = alt_size, .ss_flags = 0};
    OK(sigaltstack(&ss, NULL));
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_ONSTACK;
    OK(sigaction(SIGUSR1, &act, NULL));

    OK(pthread_mutex_lock(&stats_lock)); /* SIGUSR1 can interrupt here */
    stats++;
    OK(pthread_mutex_unlock(&stats_lock));
    OK(raise(SIGUSR1));
    CHECK(handled == 1 && on_alt && stats == 2);
    return 0;
}
