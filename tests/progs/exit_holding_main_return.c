/*
 * exit_holding_main_return.c - main returns while holding config_lock.
 *
 * Returning from main is exit(): the program's atexit handlers and the
 * destructors of its libraries run next, on this thread, and one that
 * takes config_lock (a logger flushing its settings) hangs on a lock
 * nobody will release; other threads blocked on it are killed with the
 * process having never got it.  Only pthread_exit from main was reported
 * before; the return is exit-holding too.
 *
 * EXPECT: exit-holding config_lock
 */
#include "progs.h"

static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static int config;

int main(void)
{
    OK(pthread_mutex_lock(&config_lock));
    config = 1;
    return config - 1; /* bug: returns holding config_lock */
}
