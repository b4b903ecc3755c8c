/*
 * foo.c - libfoo.a: two global mutexes, taken in either order.  Linked
 * statically into two test programs, the locks live in each program's own
 * data at different offsets; a merge must still see them as one class each.
 */
#include <pthread.h>

pthread_mutex_t foo_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t foo_b = PTHREAD_MUTEX_INITIALIZER;

void foo_ab(void)
{
    pthread_mutex_lock(&foo_a);
    pthread_mutex_lock(&foo_b);
    pthread_mutex_unlock(&foo_b);
    pthread_mutex_unlock(&foo_a);
}

void foo_ba(void)
{
    pthread_mutex_lock(&foo_b);
    pthread_mutex_lock(&foo_a);
    pthread_mutex_unlock(&foo_a);
    pthread_mutex_unlock(&foo_b);
}
