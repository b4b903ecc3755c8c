/*
 * once_clean.c - once_inversion.c's twin: main calls pthread_once holding
 * config_lock, but the initialiser takes only table_lock, which nobody
 * takes before config_lock: waiting for the initialiser under config_lock
 * cannot deadlock.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static int table;

static void load_table(void)
{
    OK(pthread_mutex_lock(&table_lock));
    table = 42;
    OK(pthread_mutex_unlock(&table_lock));
}

static void *first_user(void *arg)
{
    OK(pthread_once(&config_once, load_table));
    return arg;
}

int main(void)
{
    run_thread(first_user, NULL);
    for (int i = 0; i < 3; i++) { /* the fast path too */
        OK(pthread_mutex_lock(&config_lock));
        OK(pthread_once(&config_once, load_table));
        CHECK(table == 42);
        OK(pthread_mutex_unlock(&config_lock));
    }
    return 0;
}
