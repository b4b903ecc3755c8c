/*
 * exit_report_in_flight.c - main returns from main() while another thread
 * is printing a report.  The first report of a process loads the
 * symboliser and takes tens of milliseconds to print; the exit must wait
 * for it (bounded), not cut it off: the report is complete in the JSON
 * output and on stderr, its last lines included.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: (?s)lock_b -> lock_a, now.*\n={66}\n
 */
#include "progs.h"

#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static atomic_int inverting;

static void *inverter(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    atomic_store(&inverting, 1);
    OK(pthread_mutex_lock(&lock_a)); /* the report is printed here */
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    spawn_thread(inverter, NULL);
    while (!atomic_load(&inverting))
        sched_yield();
    struct timespec ts = {0, 2 * 1000 * 1000}; /* the report is being made */
    nanosleep(&ts, NULL);
    return 0;
}
