/*
 * timeout_cond_clean.c - timeout_cond_broke_cycle.c's twin: main's timed
 * wait for `flushed` expires while holding table_lock, but the flusher is
 * not blocked on anything main holds (it is asleep, and signals later
 * without table_lock): a timeout with nobody blocked broke nothing.  No
 * report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cond_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flushed = PTHREAD_COND_INITIALIZER;
static int flushes;

static void *flusher(void *arg)
{
    for (int i = 0; i < 2; i++) {
        if (i) {
            struct timespec ts = {0, 400 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        OK(pthread_mutex_lock(&cond_mutex));
        flushes++;
        OK(pthread_cond_signal(&flushed));
        OK(pthread_mutex_unlock(&cond_mutex));
    }
    return arg;
}

int main(void)
{
    OK(pthread_mutex_lock(&cond_mutex));
    pthread_t t = spawn_thread(flusher, NULL);
    while (flushes < 1)
        OK(pthread_cond_wait(&flushed, &cond_mutex));
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_lock(&table_lock));
    OK(pthread_mutex_lock(&cond_mutex));
    struct timespec until = in_ms(CLOCK_REALTIME, 100);
    int r = 0;
    while (flushes < 2 && r == 0)
        r = pthread_cond_timedwait(&flushed, &cond_mutex, &until);
    CHECK_RC(r, ETIMEDOUT);
    OK(pthread_mutex_unlock(&cond_mutex));
    OK(pthread_mutex_unlock(&table_lock));
    join_thread(t);
    CHECK(flushes == 2);
    return 0;
}
