/*
 * spin_abba.c - ABBA with pthread spinlocks, threads run one after the
 * other.
 *
 * Spinlocks deadlock exactly like mutexes (worse: both CPUs spin), so the
 * order rule applies to them too.  They are static and initialised with
 * pthread_spin_init(), so their names are their symbols.
 *
 * EXPECT: lock-order-inversion spin_a spin_b
 */
#include "progs.h"

static pthread_spinlock_t spin_a, spin_b;

static void *thread_ab(void *arg)
{
    OK(pthread_spin_lock(&spin_a));
    OK(pthread_spin_lock(&spin_b));
    OK(pthread_spin_unlock(&spin_b));
    OK(pthread_spin_unlock(&spin_a));
    return arg;
}

static void *thread_ba(void *arg)
{
    OK(pthread_spin_lock(&spin_b));
    OK(pthread_spin_lock(&spin_a));
    OK(pthread_spin_unlock(&spin_a));
    OK(pthread_spin_unlock(&spin_b));
    return arg;
}

int main(void)
{
    OK(pthread_spin_init(&spin_a, PTHREAD_PROCESS_PRIVATE));
    OK(pthread_spin_init(&spin_b, PTHREAD_PROCESS_PRIVATE));
    run_thread(thread_ab, NULL);
    run_thread(thread_ba, NULL);
    OK(pthread_spin_destroy(&spin_a));
    OK(pthread_spin_destroy(&spin_b));
    return 0;
}
