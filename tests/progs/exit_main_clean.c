/*
 * exit_main_clean.c - the clean twin of exit_holding_main_return.c and
 * exit_holding_exit_call.c: main releases config_lock before it returns,
 * and an atexit handler takes and releases it (it can, since nobody holds
 * it).  A worker thread that calls exit() would hold nothing either, so
 * main's return is checked with an empty held set.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static int config;

static void flush_config(void)
{
    OK(pthread_mutex_lock(&config_lock));
    config = 0;
    OK(pthread_mutex_unlock(&config_lock));
}

int main(void)
{
    CHECK(atexit(flush_config) == 0);
    OK(pthread_mutex_lock(&config_lock));
    config = 1;
    OK(pthread_mutex_unlock(&config_lock));
    return config - 1;
}
