/*
 * watchdog_all_three.c - a three-lock cycle through every thread of the
 * process (main and two others), none left idle: main holds lock_a and
 * wants lock_b, T2 holds lock_b and wants lock_c, T3 holds lock_c and wants
 * lock_a.  The watchdog must name all three (a cycle as long as the thread
 * list was once missed).  The potential deadlock is reported first, when
 * the third thread to ask closes the cycle in the graph.
 *
 * OPTIONS: watchdog=1
 * HANGS: 4
 * EXPECT: lock-order-inversion lock_a lock_b lock_c
 * EXPECT: deadlock-detected lock_a lock_b lock_c
 * EXPECT-STDERR: 3 threads blocked on each other
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t all_hold_one;

static void *thread_bc(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    pthread_barrier_wait(&all_hold_one);
    OK(pthread_mutex_lock(&lock_c)); /* blocks forever */
    return arg;
}

static void *thread_ca(void *arg)
{
    OK(pthread_mutex_lock(&lock_c));
    pthread_barrier_wait(&all_hold_one);
    OK(pthread_mutex_lock(&lock_a)); /* blocks forever */
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&all_hold_one, NULL, 3));
    pthread_t t2 = spawn_thread(thread_bc, NULL);
    pthread_t t3 = spawn_thread(thread_ca, NULL);
    OK(pthread_mutex_lock(&lock_a));
    pthread_barrier_wait(&all_hold_one);
    OK(pthread_mutex_lock(&lock_b)); /* blocks forever */
    join_thread(t2);
    join_thread(t3);
    return 0;
}
