/*
 * class_nested_inversion.c - a nesting subclass does not hide a real
 * cycle among the subclass nodes.  Thread 1 holds base0 and takes base1
 * as subclass 1; thread 2 (later) takes base1 as subclass 1 and, holding
 * it, takes base0.
 *
 * Nodes: base0 -> base1/1 and base1/1 -> base0, a cycle, and a real
 * deadlock (each thread holds one lock and wants the other).  The report
 * names the nodes; a subclass appends "/<subclass>" (docs/reports.md), so
 * base0 and base1/1.
 *
 * EXPECT: lock-order-inversion base0 base1/1
 */
#include "progs.h"

static pthread_mutex_t lock0, lock1;

static void *thread_1(void *arg)
{
    OK(pthread_mutex_lock(&lock0));
    uld_lock_nested(&lock1, 1);
    OK(pthread_mutex_lock(&lock1));
    OK(pthread_mutex_unlock(&lock1));
    OK(pthread_mutex_unlock(&lock0));
    return arg;
}

static void *thread_2(void *arg)
{
    uld_lock_nested(&lock1, 1);
    OK(pthread_mutex_lock(&lock1));
    OK(pthread_mutex_lock(&lock0));
    OK(pthread_mutex_unlock(&lock0));
    OK(pthread_mutex_unlock(&lock1));
    return arg;
}

static __attribute__((noinline)) void base_init(pthread_mutex_t *m, const char *name)
{
    OK(pthread_mutex_init(m, NULL));
    uld_lock_set_name(m, name);
}

int main(void)
{
    base_init(&lock0, "base0");
    base_init(&lock1, "base1");
    run_thread(thread_1, NULL);
    run_thread(thread_2, NULL);
    return 0;
}
