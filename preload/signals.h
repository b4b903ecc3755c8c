/*
 * signals.h - what the signal modules of the interposer share: installing a
 * disposition through the trampoline (signal.c) and changing the mask with
 * the validator told (signal.c), for the other installers (sigcompat.c) and
 * longjmp (longjmp.c).
 */
#ifndef ULD_PRELOAD_SIGNALS_H
#define ULD_PRELOAD_SIGNALS_H

#include <signal.h>
#include <stdint.h>
#include <string.h>

/* sigaction() as the program sees it: errno and results untouched. */
int uld_sig_action(int sig, const struct sigaction *act, struct sigaction *oldact)
    __attribute__((visibility("hidden")));
/* sigprocmask(), the validator's mirror of the mask kept up to date. */
int uld_sig_procmask(int how, const sigset_t *set, sigset_t *old)
    __attribute__((visibility("hidden")));

/* Install the kill-time report's handler where the default action would
 * end the process (option kill_report); at start-up, after uld_init(). */
void uld_kill_watch_install(void) __attribute__((visibility("hidden")));

/* The first 64 signals of a sigset_t: bit (signo - 1), as in glibc's layout. */
static inline uint64_t uld_mask64(const sigset_t *set)
{
    uint64_t m;
    memcpy(&m, set, sizeof(m));
    return m;
}

#endif
