/*
 * class_transfer.c - transfer(from, to) locks from->lock then to->lock;
 * one thread runs transfer(a, b), another (later) transfer(b, a).  The
 * account locks are heap locks without names.
 *
 * Run concurrently the two transfers deadlock: a lock-order-inversion on
 * the two *instances* (an instance cycle exists, so this is not merely a
 * class-order warning).  Unnamed heap locks are named
 * <init site>#<n> (docs/reports.md): account_new:LINE#1 for a (created
 * first) and account_new:LINE#2 for b.
 *
 * EXPECT: lock-order-inversion account_new:*#1 account_new:*#2
 */
#include "progs.h"

struct account {
    pthread_mutex_t lock;
    long balance;
};

static __attribute__((noinline)) struct account *account_new(long balance)
{
    struct account *acc = malloc(sizeof(*acc));
    CHECK(acc != NULL);
    OK(pthread_mutex_init(&acc->lock, NULL));
    acc->balance = balance;
    return acc;
}

static void transfer(struct account *from, struct account *to, long amount)
{
    OK(pthread_mutex_lock(&from->lock));
    OK(pthread_mutex_lock(&to->lock));
    from->balance -= amount;
    to->balance += amount;
    OK(pthread_mutex_unlock(&to->lock));
    OK(pthread_mutex_unlock(&from->lock));
}

static struct account *acc_a, *acc_b;

static void *pay_a_to_b(void *arg)
{
    transfer(acc_a, acc_b, 10);
    return arg;
}

static void *pay_b_to_a(void *arg)
{
    transfer(acc_b, acc_a, 5);
    return arg;
}

int main(void)
{
    acc_a = account_new(100);
    acc_b = account_new(100);
    run_thread(pay_a_to_b, NULL);
    run_thread(pay_b_to_a, NULL);
    CHECK(acc_a->balance == 95 && acc_b->balance == 105);
    OK(pthread_mutex_destroy(&acc_a->lock));
    OK(pthread_mutex_destroy(&acc_b->lock));
    free(acc_a);
    free(acc_b);
    return 0;
}
