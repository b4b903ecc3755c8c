/*
 * robust_signal_longjmp_altstack.c - a jump out of a nested handler that
 * runs on the alternate stack, back into the handler it interrupted, in a
 * thread whose alternate stack lies *above* its own stack (one mapping:
 * the thread's stack below, the alternate stack on top).  Built with
 * _FORTIFY_SOURCE, so siglongjmp is glibc's __longjmp_chk.
 *
 * The thread's SIGUSR1 handler (on the thread's stack) sets a sigsetjmp
 * point and raises SIGUSR2, whose handler runs on the alternate stack and
 * jumps back there (mask restored: SIGUSR1 blocked, SIGUSR2 not, checked).
 * The SIGUSR2 handler is over; the SIGUSR1 one goes on and takes
 * usr1_lock.  Later the thread takes usr1_lock with SIGUSR1 unblocked: if
 * SIGUSR1 arrived then, its handler would block on the lock forever on
 * the same thread, so one signal-unsafe-lock, for SIGUSR1.
 *
 * What goes wrong without care: comparing stack addresses without the
 * alternate stack's bounds keeps the SIGUSR2 handler "running" (the jump
 * target is below its frame), so the report would name SIGUSR2; ending
 * every handler at the jump loses the SIGUSR1 one, and the report.
 *
 * EXPECT: signal-unsafe-lock usr1_lock
 * EXPECT-STDERR: taken in a handler for SIGUSR1 and
 * EXPECT-NOT-STDERR: SIGUSR2
 */
#undef _FORTIFY_SOURCE
#define _FORTIFY_SOURCE 2
#include "progs.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

#define STACK_SIZE (1024 * 1024)
#define ALT_SIZE (64 * 1024)

static pthread_mutex_t usr1_lock = PTHREAD_MUTEX_INITIALIZER;
static sigjmp_buf inner;
static volatile sig_atomic_t usr1, usr2, mask_ok;
static char *alt;

static void on_usr2(int sig)
{
    usr2++;
    siglongjmp(inner, sig); /* out of this handler, into the SIGUSR1 one */
}

static void on_usr1(int sig)
{
    (void)sig;
    if (sigsetjmp(inner, 1) == 0) {
        raise(SIGUSR2);
        return; /* not reached: the SIGUSR2 handler jumps */
    }
    sigset_t cur;
    OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
    mask_ok = sigismember(&cur, SIGUSR1) == 1 && sigismember(&cur, SIGUSR2) == 0;
    OK(pthread_mutex_lock(&usr1_lock)); /* in the SIGUSR1 handler */
    usr1++;
    OK(pthread_mutex_unlock(&usr1_lock));
}

static void *worker(void *arg)
{
    char here;
    CHECK(&here < alt); /* the alternate stack is above this one */
    OK(sigaltstack(&(stack_t){.ss_sp = alt, .ss_size = ALT_SIZE}, NULL));
    OK(raise(SIGUSR1));
    CHECK(usr1 == 1 && usr2 == 1 && mask_ok);
    OK(pthread_mutex_lock(&usr1_lock)); /* SIGUSR1 unblocked */
    usr1++;
    OK(pthread_mutex_unlock(&usr1_lock));
    return arg;
}

static void install(int sig, void (*fn)(int), int flags)
{
    struct sigaction act;
    memset(&act, 0, sizeof(act));
    act.sa_handler = fn;
    act.sa_flags = flags;
    sigemptyset(&act.sa_mask);
    OK(sigaction(sig, &act, NULL));
}

int main(void)
{
    install(SIGUSR1, on_usr1, 0);
    install(SIGUSR2, on_usr2, SA_ONSTACK);
    char *base = mmap(NULL, STACK_SIZE + ALT_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    CHECK(base != MAP_FAILED);
    alt = base + STACK_SIZE;
    pthread_attr_t attr;
    OK(pthread_attr_init(&attr));
    OK(pthread_attr_setstack(&attr, base, STACK_SIZE));
    pthread_t t;
    OK(pthread_create(&t, &attr, worker, NULL));
    OK(pthread_join(t, NULL));
    CHECK(usr1 == 2);
    return 0;
}
