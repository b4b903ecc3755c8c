/*
 * kill_sem_wait.c - a hang through a semaphore wait, killed from outside:
 * after a hundred rounds of main waiting for `done` holding table_lock
 * (sem_consumer_rounds.h: the waits come from the fast path), the worker
 * must take table_lock before it posts again and blocks on it, and main
 * waits for `done` without a timeout: nothing is posted ever again.  A
 * third thread raises SIGTERM.  The kill-time report must show main
 * blocked in its wait on `done` holding table_lock, and the worker blocked
 * on table_lock: a fast wait is published as blocked like a slow one.
 *
 * HANGS: 8
 * EXPECT-SIGNAL: SIGTERM
 * EXPECT: blocked-at-kill table_lock done
 * EXPECT-STDERR: SIGTERM ends the process; 2 threads blocked
 */
#include "sem_consumer_rounds.h"

#include <signal.h>

static void *killer(void *arg)
{
    struct timespec ts = {1, 0}; /* both are blocked by now */
    nanosleep(&ts, NULL);
    raise(SIGTERM);
    return arg;
}

int main(void)
{
    consume_rounds();
    spawn_thread(killer, NULL);
    CHECK(sem_wait(&done) == 0); /* blocks forever */
    return 0;
}
