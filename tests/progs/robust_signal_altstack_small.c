/*
 * robust_signal_altstack_small.c - a SIGUSR1 handler on an 8 KiB
 * alternate signal stack (SA_ONSTACK) takes handler_lock, a lock nothing
 * else takes, while main holds main_lock.
 *
 * 8 KiB is the SIGSTKSZ of glibc before 2.34 (and still what it is on
 * machines without AVX-512), and a size programs hard-code; natively this
 * handler, with the kernel's signal frame, uses about 3.2 KiB of it
 * (measured on an AVX-512 machine, whose frames are the largest).  The
 * stack is mmap'ed with a PROT_NONE guard page below it, so an overflow is
 * a clean SIGSEGV rather than silent heap corruption.  As in
 * signal_handler_only_clean.c, a lock used only inside one handler can
 * never be held where that handler interrupts, and main_lock is never
 * taken in a handler: nothing can deadlock, no report.  What this checks
 * is that the validator's work inside a handler (a first acquisition:
 * validation, the stack capture for the signal context) fits in the
 * stack the program gave its handler.  The handler checks it runs on the
 * alternate stack; the counts are checked.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#define ALT_SIZE 8192
#define GUARD 4096

static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t main_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled, on_alt;
static char *alt_base;

static void on_usr1(int sig)
{
    char here;
    on_alt = &here >= alt_base && &here < alt_base + ALT_SIZE;
    OK(pthread_mutex_lock(&handler_lock));
    handled += sig == SIGUSR1;
    OK(pthread_mutex_unlock(&handler_lock));
}

int main(void)
{
    char *map = mmap(NULL, GUARD + ALT_SIZE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(map != MAP_FAILED);
    OK(mprotect(map, GUARD, PROT_NONE)); /* below the stack: it grows down */
    alt_base = map + GUARD;
    stack_t ss = {.ss_sp = alt_base, .ss_size = ALT_SIZE, .ss_flags = 0};
    OK(sigaltstack(&ss, NULL));
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_ONSTACK;
    OK(sigaction(SIGUSR1, &act, NULL));

    for (int i = 0; i < 3; i++) {
        OK(pthread_mutex_lock(&main_lock));
        OK(raise(SIGUSR1)); /* interrupts a holder of main_lock: harmless */
        OK(pthread_mutex_unlock(&main_lock));
    }
    CHECK(handled == 3 && on_alt);
    return 0;
}
