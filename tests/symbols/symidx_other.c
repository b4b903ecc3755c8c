/*
 * symidx_other.c - the second file of test_symindex: a file-local lock
 * named like the one in test_symindex.c, which must be told apart by its
 * file, and a function a frame is taken in.
 */
#include <pthread.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

pthread_mutex_t *symidx_other_lock(void)
{
    return &table_lock;
}

/* fn's return address: a frame in this function. */
__attribute__((noinline)) void *symidx_other_call(void *(*fn)(void))
{
    void *r = fn();
    __asm__ volatile("" ::: "memory"); /* keep the call a call, not a tail jump */
    return r;
}
