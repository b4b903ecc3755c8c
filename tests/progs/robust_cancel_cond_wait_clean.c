/*
 * robust_cancel_cond_wait_clean.c - a thread is cancelled (deferred
 * cancellation) while blocked in pthread_cond_wait, and its cleanup
 * handler unlocks the mutex.
 *
 * POSIX: a cancelled pthread_cond_wait re-acquires the mutex before the
 * cleanup handlers run; the program's handler (pushed around the wait)
 * then unlocks it, so the thread ends holding nothing.  The interposer's
 * own cleanup inside its pthread_cond_wait wrapper must run first and
 * leave the validator agreeing that the mutex is held at that point: no
 * unlock-not-held, no exit-holding, no report.  Afterwards main and a
 * second waiter use the mutex and the condition variable normally (a
 * signalled wait), which checks that the cancelled wait left both in a
 * usable state, natively and under the validator.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t cv_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int waiting, ready, cleanups;

static void unlock_cleanup(void *m)
{
    cleanups++; /* the mutex is held again here */
    OK(pthread_mutex_unlock(m));
}

static void *cancelled_waiter(void *arg)
{
    OK(pthread_mutex_lock(&cv_mutex));
    pthread_cleanup_push(unlock_cleanup, &cv_mutex);
    waiting = 1;
    OK(pthread_cond_broadcast(&cv)); /* tell main: waiting from now on */
    while (!ready)
        OK(pthread_cond_wait(&cv, &cv_mutex)); /* cancelled here */
    pthread_cleanup_pop(1);
    return arg;
}

static void *signalled_waiter(void *arg)
{
    OK(pthread_mutex_lock(&cv_mutex));
    waiting = 2;
    OK(pthread_cond_broadcast(&cv));
    while (!ready)
        OK(pthread_cond_wait(&cv, &cv_mutex));
    OK(pthread_mutex_unlock(&cv_mutex));
    return arg ? arg : (void *)42;
}

int main(void)
{
    pthread_t t = spawn_thread(cancelled_waiter, NULL);
    OK(pthread_mutex_lock(&cv_mutex));
    while (waiting != 1)
        OK(pthread_cond_wait(&cv, &cv_mutex));
    OK(pthread_mutex_unlock(&cv_mutex)); /* the thread can only be in its wait now */
    OK(pthread_cancel(t));
    CHECK(join_thread(t) == PTHREAD_CANCELED);
    CHECK(cleanups == 1);
    OK(pthread_mutex_trylock(&cv_mutex)); /* released by the cleanup handler */
    OK(pthread_mutex_unlock(&cv_mutex));

    t = spawn_thread(signalled_waiter, NULL);
    OK(pthread_mutex_lock(&cv_mutex));
    while (waiting != 2)
        OK(pthread_cond_wait(&cv, &cv_mutex));
    ready = 1;
    OK(pthread_cond_signal(&cv));
    OK(pthread_mutex_unlock(&cv_mutex));
    CHECK(join_thread(t) == (void *)42);
    return 0;
}
