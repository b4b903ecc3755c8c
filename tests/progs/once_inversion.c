/*
 * once_inversion.c - pthread_once's control is a lock held while the
 * initialiser runs.  T2 runs the initialiser, which takes config_lock:
 * config_once -> config_lock.  Later main holds config_lock and calls
 * pthread_once on the same control: config_lock -> config_once.  Had main
 * come first, while T2 was initialising, main would wait for the
 * initialiser holding the lock the initialiser needs: a deadlock.
 *
 * EXPECT: lock-order-inversion config_lock config_once
 */
#include "progs.h"

static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static int config;

static void load_config(void)
{
    OK(pthread_mutex_lock(&config_lock));
    config = 42;
    OK(pthread_mutex_unlock(&config_lock));
}

static void *first_user(void *arg)
{
    OK(pthread_once(&config_once, load_config));
    return arg;
}

int main(void)
{
    run_thread(first_user, NULL);
    OK(pthread_mutex_lock(&config_lock));
    OK(pthread_once(&config_once, load_config));
    CHECK(config == 42);
    OK(pthread_mutex_unlock(&config_lock));
    return 0;
}
