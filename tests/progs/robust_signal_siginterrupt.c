/*
 * robust_signal_siginterrupt.c - siginterrupt(SIGALRM, 1) and then
 * signal(SIGALRM, handler): the handler must interrupt system calls (no
 * SA_RESTART), as natively.
 *
 * glibc's signal() gives BSD semantics, SA_RESTART, *unless* the program
 * asked for interruption with siginterrupt(), which glibc remembers per
 * signal (its _sigintr set) and honours in every later signal() call.  So
 * a blocking read() on an empty pipe returns -1/EINTR at the first tick
 * of a 10 ms interval timer, and sigaction(SIGALRM, NULL, &old) shows the
 * handler without SA_RESTART (SA_RESTORER only, glibc's own).  An
 * interposed signal() that always adds SA_RESTART would make the read
 * restart instead; the handler writes a byte into the pipe at the 20th
 * tick so that the program ends anyway (the read then returns 1, and the
 * check says so).  No lock: no report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* x86_64 kernel ABI; not in glibc's headers */
#endif

static int fds[2];
static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
    if (sig == SIGALRM && ++ticks == 20)
        (void)!write(fds[1], "x", 1); /* end a read that keeps restarting */
}

int main(void)
{
    OK(pipe(fds));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    OK(siginterrupt(SIGALRM, 1)); /* before the handler exists */
#pragma GCC diagnostic pop
    CHECK(signal(SIGALRM, on_alarm) == SIG_DFL);

    struct itimerval every_10ms = {{0, 10000}, {0, 10000}};
    OK(setitimer(ITIMER_REAL, &every_10ms, NULL));
    char c;
    ssize_t n = read(fds[0], &c, 1);
    int err = errno;
    struct itimerval off = {{0, 0}, {0, 0}};
    OK(setitimer(ITIMER_REAL, &off, NULL));
    if (n != -1 || err != EINTR)
        fprintf(stderr, "read returned %zd after %d ticks, expected -1/EINTR\n", n,
                (int)ticks);
    CHECK(n == -1 && err == EINTR);

    struct sigaction cur;
    OK(sigaction(SIGALRM, NULL, &cur));
    CHECK(cur.sa_handler == on_alarm);
    CHECK(cur.sa_flags == SA_RESTORER); /* no SA_RESTART */
    CHECK(sigismember(&cur.sa_mask, SIGALRM) == 1);
    return 0;
}
