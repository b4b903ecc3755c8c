/* REPRO: wait-for-cycle
 *
 * ulockdep false positive found on rocksdb's db_bench (docs/real-world.md,
 * "rocksdb"): rocksdb::Timer has one condition variable for two purposes.
 * Timer::Add() signals it to wake the timer thread about new work, and it is
 * called (from PeriodicTaskScheduler::Register) with the global timer_mutex
 * held.  Timer::Cancel() (from PeriodicTaskScheduler::Unregister, also with
 * timer_mutex held) waits on it until the task that the timer thread is
 * running ends; the timer thread signals that with only the Timer's own
 * mutex held, never timer_mutex.
 *
 * When Cancel() waits before the timer thread has finished any task, every
 * wake-up ulockdep has seen so far came from Add(), with timer_mutex held.
 * Its rule "if every wake-up of W seen so far happened with L held, the waker
 * needs L first, and the wait can never end" then reports a
 * wait-for-cycle error, although the wake-up that ends this wait comes from
 * a thread that never takes L.  All the wake-ups seen were made by the
 * waiting thread itself, which can never be the one to end its own wait.
 *
 * This program does exactly that and always terminates.
 * Native: exits 0.  Under ulockdep: one wait-for-cycle error
 * (outer -> cv, cv woken only with outer held).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER; /* timer_mutex */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;    /* Timer::mutex_ */
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;      /* Timer::cond_var_ */
static int have_work, executing, done;

static void *timer_thread(void *arg) /* Timer::Run */
{
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!have_work)
        pthread_cond_wait(&cv, &mu);
    executing = 1;
    pthread_mutex_unlock(&mu);
    usleep(200 * 1000); /* the task runs without any lock */
    pthread_mutex_lock(&mu);
    executing = 0;
    done = 1;
    pthread_cond_broadcast(&cv); /* the wake-up that ends Cancel's wait: no outer */
    pthread_mutex_unlock(&mu);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, timer_thread, NULL);

    /* Register -> Timer::Add: signal with outer held */
    pthread_mutex_lock(&outer);
    pthread_mutex_lock(&mu);
    have_work = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&outer);

    /* let the timer thread start the task */
    for (;;) {
        pthread_mutex_lock(&mu);
        int running = executing;
        pthread_mutex_unlock(&mu);
        if (running)
            break;
        usleep(1000);
    }

    /* Unregister -> Timer::Cancel: wait with outer held for the task to end */
    pthread_mutex_lock(&outer);
    pthread_mutex_lock(&mu);
    while (executing)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&outer);

    pthread_join(t, NULL);
    printf("done %d\n", done);
    return 0;
}
