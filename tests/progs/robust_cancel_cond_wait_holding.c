/*
 * robust_cancel_cond_wait_holding.c - twin of
 * robust_cancel_cond_wait_clean.c without the cleanup handler: the thread
 * is cancelled while blocked in pthread_cond_wait and has nothing to
 * unlock the mutex.
 *
 * A cancelled pthread_cond_wait re-acquires the mutex before the thread
 * unwinds (POSIX), so the thread ends holding cv_mutex: every later
 * locker would hang (main proves it is still locked with a trylock that
 * gets EBUSY).  The validator must report exit-holding for cv_mutex, the
 * mutex it sees re-acquired by its own wrapper's cleanup, and nothing
 * else.
 *
 * EXPECT: exit-holding cv_mutex
 */
#include "progs.h"

static pthread_mutex_t cv_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int waiting, ready;

static void *cancelled_waiter(void *arg)
{
    OK(pthread_mutex_lock(&cv_mutex));
    waiting = 1;
    OK(pthread_cond_broadcast(&cv));
    while (!ready)
        OK(pthread_cond_wait(&cv, &cv_mutex)); /* cancelled here */
    OK(pthread_mutex_unlock(&cv_mutex));
    return arg;
}

int main(void)
{
    pthread_t t = spawn_thread(cancelled_waiter, NULL);
    OK(pthread_mutex_lock(&cv_mutex));
    while (waiting != 1)
        OK(pthread_cond_wait(&cv, &cv_mutex));
    OK(pthread_mutex_unlock(&cv_mutex));
    OK(pthread_cancel(t));
    CHECK(join_thread(t) == PTHREAD_CANCELED);
    CHECK_RC(pthread_mutex_trylock(&cv_mutex), EBUSY); /* left locked by the dead thread */
    return 0;
}
