/*
 * join_holding.c - the classic stop(): main holds state_lock and joins the
 * worker, which takes state_lock once in its life.  Here the worker took it
 * and exited before the join, so this run ends; had main taken the lock and
 * joined first, the worker would block on state_lock forever and the join
 * would never return.  A thread's end needs every lock the thread takes:
 * joining it while holding one of them is a wait-for cycle (the thread's
 * end is named after its serial, T2).
 *
 * EXPECT: wait-for-cycle state_lock 'thread T2'
 * EXPECT-STDERR: (?s)\[wait-for-cycle\].*?worker\+[^\n]*join_holding\.c:{{line:take}}\)
 */
#include "progs.h"

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t worker_done;
static int state;

static void *worker(void *arg)
{
    OK(pthread_mutex_lock(&state_lock)); /* @line:take */
    state++;
    OK(pthread_mutex_unlock(&state_lock));
    pthread_barrier_wait(&worker_done);
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&worker_done, NULL, 2));
    pthread_t t = spawn_thread(worker, NULL);
    pthread_barrier_wait(&worker_done); /* the worker is past its lock */
    OK(pthread_mutex_lock(&state_lock));
    join_thread(t); /* stop(): join under the state lock */
    OK(pthread_mutex_unlock(&state_lock));
    CHECK(state == 1);
    return 0;
}
