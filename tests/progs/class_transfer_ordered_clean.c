/*
 * class_transfer_ordered_clean.c - clean twin of class_transfer.c:
 * transfer() locks the account with the lower address first, whatever
 * the direction of the payment.
 *
 * Both transfers take the two locks in the same (address) order: a single
 * instance edge, no cycle, no deadlock.  The class is nested in itself,
 * which is not a class cycle.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <stdint.h>

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
    int from_first = (uintptr_t)from < (uintptr_t)to;
    struct account *first = from_first ? from : to, *second = from_first ? to : from;
    OK(pthread_mutex_lock(&first->lock));
    OK(pthread_mutex_lock(&second->lock));
    from->balance -= amount;
    to->balance += amount;
    OK(pthread_mutex_unlock(&second->lock));
    OK(pthread_mutex_unlock(&first->lock));
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
