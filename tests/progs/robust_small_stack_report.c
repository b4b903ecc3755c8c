/*
 * robust_small_stack_report.c - threads created with a 64 KiB stack (set
 * with pthread_attr_setstacksize, as programs with many threads do) close
 * an ABBA, so the report is built on such a stack.
 *
 * The first thread takes lock_a -> lock_b, the second lock_b -> lock_a:
 * run concurrently they deadlock, one lock-order-inversion report, found
 * and written by the second thread, on its own stack (the validator
 * reports before the thread blocks).  The program itself needs well under
 * a kilobyte of each stack; the validator's detection, stack capture,
 * symbolisation and formatting must fit in what is left of 64 KiB, or the
 * program dies of a stack overflow that natively cannot happen.  Both
 * threads must run to their end (their count is checked).
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#define STACK (64 * 1024)

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int done;

static void *take(void *first)
{
    pthread_mutex_t *a = first, *b = a == &lock_a ? &lock_b : &lock_a;
    OK(pthread_mutex_lock(a));
    OK(pthread_mutex_lock(b)); /* the second thread: reported here */
    done++;
    OK(pthread_mutex_unlock(b));
    OK(pthread_mutex_unlock(a));
    return NULL;
}

static void run_small(void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    OK(pthread_attr_init(&attr));
    OK(pthread_attr_setstacksize(&attr, STACK));
    pthread_t t;
    OK(pthread_create(&t, &attr, fn, arg));
    OK(pthread_attr_destroy(&attr));
    join_thread(t);
}

int main(void)
{
    run_small(take, &lock_a);
    run_small(take, &lock_b);
    CHECK(done == 2);
    return 0;
}
