/*
 * exit_holding_exit_call.c - a worker thread calls exit() while holding
 * state_lock and log_lock (an error path: "fatal: ..." then exit).
 *
 * exit() runs the atexit handlers and destructors on the calling thread
 * with both locks still held: any of them that takes one hangs.  One
 * exit-holding report listing both; the exit status becomes 66 because
 * an error was reported (exitcode option).
 *
 * EXPECT: exit-holding log_lock state_lock
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&state_lock));
    OK(pthread_mutex_lock(&log_lock));
    exit(0); /* bug: exits holding both */
    return arg;
}

int main(void)
{
    run_thread(worker, NULL);
    return 1; /* not reached */
}
