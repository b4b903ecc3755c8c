/*
 * recordless_abba.c - two per-request locks, each first taken holding
 * nothing (no record), then nested in both orders by two threads that run
 * one after the other.  lock-order-inversion naming both.
 *
 * EXPECT: lock-order-inversion request_new:*#2 request_new:*#3
 */
#include "recordless.h"

static struct request *a, *b;

static void *forward(void *arg)
{
    request_thread_warm();
    request_lock(a);
    OK(pthread_mutex_lock(&b->lock));
    OK(pthread_mutex_unlock(&b->lock));
    request_unlock(a);
    return arg;
}

static void *backward(void *arg)
{
    request_thread_warm();
    request_lock(b);
    OK(pthread_mutex_lock(&a->lock));
    OK(pthread_mutex_unlock(&a->lock));
    request_unlock(b);
    return arg;
}

int main(void)
{
    request_thread_warm();
    a = request_new();
    b = request_new();
    run_thread(forward, NULL);
    run_thread(backward, NULL);
    request_free(a);
    request_free(b);
    return 0;
}
