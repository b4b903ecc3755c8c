/*
 * timeout_sem_broke_cycle.c - the semaphore twin of
 * timeout_cond_broke_cycle.c, its last wait from the fast path
 * (sem_consumer_rounds.h: a hundred rounds of main waiting for `done`
 * holding table_lock).  Then the worker must take table_lock before its
 * next post and blocks on it; main's wait (200 ms) expires, main unlocks,
 * and the worker gets through.  The timeout broke a deadlock:
 * timeout-deadlock naming `done` and table_lock.  No lock order predicts
 * it (a hundred posts needed no table_lock).
 *
 * EXPECT: timeout-deadlock done table_lock
 */
#include "sem_consumer_rounds.h"

int main(void)
{
    pthread_t t = consume_rounds();
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL); /* the worker is blocked on table_lock now */
    struct timespec until = in_ms(CLOCK_REALTIME, 200);
    CHECK(sem_timedwait(&done, &until) == -1 && errno == ETIMEDOUT);
    OK(pthread_mutex_unlock(&table_lock));
    join_thread(t);
    return 0;
}
