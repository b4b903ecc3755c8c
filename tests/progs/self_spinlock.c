/*
 * self_spinlock.c - a thread relocks a spinlock it holds.
 *
 * A spinlock has no owner and no timed variant: the second
 * pthread_spin_lock spins forever.  The validator must report the
 * self-deadlock before passing the call on; the program then hangs (and
 * burns a CPU) until the runner kills it.
 *
 * HANGS: 3
 * EXPECT: self-deadlock spin
 */
#include "progs.h"

static pthread_spinlock_t spin;

int main(void)
{
    OK(pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE));
    OK(pthread_spin_lock(&spin));
    OK(pthread_spin_lock(&spin)); /* spins forever */
    return 0;
}
