/*
 * barrier_holding_clean.c - barrier_holding.c's twin: main waits at the
 * barrier holding table_lock, but the other participant takes table_lock
 * only after the barrier, so nothing it needs to arrive is held: no report
 * (the fast path's memo is reset at each pass, so the acquisition after
 * the barrier is not mistaken for one before the next round).
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t arrived;
static int rows;

static void *loader(void *arg)
{
    pthread_barrier_wait(&arrived);
    OK(pthread_mutex_lock(&table_lock));
    rows++;
    OK(pthread_mutex_unlock(&table_lock));
    return arg;
}

int main(void)
{
    OK(pthread_barrier_init(&arrived, NULL, 2));
    pthread_t t = spawn_thread(loader, NULL);
    OK(pthread_mutex_lock(&table_lock));
    pthread_barrier_wait(&arrived);
    OK(pthread_mutex_unlock(&table_lock));
    join_thread(t);
    CHECK(rows == 1);
    return 0;
}
