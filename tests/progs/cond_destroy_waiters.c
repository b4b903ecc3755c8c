/*
 * cond_destroy_waiters.c - main destroys a condition variable while a
 * thread waits on it (Helgrind and DRD: "pthread_cond_destroy: destruction
 * of condition variable being waited upon").
 *
 * POSIX leaves it undefined; glibc's destroy blocks until the waiters
 * leave, so a waiter nobody signals hangs the destroying thread too.  The
 * waiter here uses a 300 ms timed wait, so the run ends.  The report comes
 * before the destroy blocks, naming the condvar: destroy-held.
 *
 * EXPECT: destroy-held ready
 * EXPECT-STDERR: destroyed while 1 thread waits on it
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready;
static int waiting;

static void *waiter(void *arg)
{
    OK(pthread_mutex_lock(&lock_m));
    waiting = 1;
    struct timespec deadline = in_ms(CLOCK_REALTIME, 300);
    CHECK_RC(pthread_cond_timedwait(&ready, &lock_m, &deadline), ETIMEDOUT);
    OK(pthread_mutex_unlock(&lock_m));
    return arg;
}

int main(void)
{
    OK(pthread_cond_init(&ready, NULL));
    pthread_t t = spawn_thread(waiter, NULL);
    for (;;) { /* the waiter set `waiting` and released lock_m: it is waiting */
        OK(pthread_mutex_lock(&lock_m));
        int w = waiting;
        OK(pthread_mutex_unlock(&lock_m));
        if (w)
            break;
        sched_yield();
    }
    OK(pthread_cond_destroy(&ready)); /* the bug: the waiter is still inside */
    join_thread(t);
    return 0;
}
