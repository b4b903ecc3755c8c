/*
 * rw_tryrd_held_edge.c - thread 1 gets rw_x(r) with
 * pthread_rwlock_tryrdlock and, holding it, blocks to write rw_y; thread 2
 * (later) writes rw_y then rw_x.
 *
 * The trylock adds no edge into rw_x, but once held rw_x is held: thread
 * 1 waits for rw_y while holding rw_x(r), thread 2 waits for rw_x(w)
 * while holding rw_y(w), and a writer waits for readers.  Inversion.
 *
 * EXPECT: lock-order-inversion rw_x rw_y
 */
#include "progs.h"

static pthread_rwlock_t rw_x = PTHREAD_RWLOCK_INITIALIZER;
static pthread_rwlock_t rw_y = PTHREAD_RWLOCK_INITIALIZER;

static void *thread_1(void *arg)
{
    OK(pthread_rwlock_tryrdlock(&rw_x));
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_y));
    OK(pthread_rwlock_unlock(&rw_x));
    return arg;
}

static void *thread_2(void *arg)
{
    OK(pthread_rwlock_wrlock(&rw_y));
    OK(pthread_rwlock_wrlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_x));
    OK(pthread_rwlock_unlock(&rw_y));
    return arg;
}

int main(void)
{
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
