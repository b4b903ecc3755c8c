/*
 * e2e_locks.c - a shared library with two static mutexes, for the
 * end-to-end test of `ulockdep merge`: the locks live here, so their class
 * keys (libuld_e2e_locks.so@0xOFF) are the same in every program using it.
 */
#include <pthread.h>

static pthread_mutex_t lock_x = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_y = PTHREAD_MUTEX_INITIALIZER;

void e2e_take_xy(void)
{
    pthread_mutex_lock(&lock_x);
    pthread_mutex_lock(&lock_y);
    pthread_mutex_unlock(&lock_y);
    pthread_mutex_unlock(&lock_x);
}

void e2e_take_yx(void)
{
    pthread_mutex_lock(&lock_y);
    pthread_mutex_lock(&lock_x);
    pthread_mutex_unlock(&lock_x);
    pthread_mutex_unlock(&lock_y);
}
