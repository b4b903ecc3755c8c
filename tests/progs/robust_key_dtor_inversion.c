/*
 * robust_key_dtor_inversion.c - twin of robust_tls_dtors.cc with a real
 * ordering bug inside a pthread_key_create destructor.
 *
 * The first thread takes lock_a -> lock_b while it runs.  The second
 * thread stores a value under a key whose destructor, run by glibc as the
 * thread exits (after the thread's start routine returned), takes lock_b
 * -> lock_a.  The destructor runs on the exiting thread like any other
 * code: had the first thread run concurrently, the two would deadlock, so
 * the validator must report the inversion, whatever the order in which
 * glibc runs the destructors of its keys and of the validator's own.  A
 * third thread's key destructor returns with lock_c still locked: the
 * thread ends holding it (exit-holding, as for a return holding it).  The
 * counts are checked.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT: exit-holding lock_c
 */
#include "progs.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t flush_key, leak_key;
static int flushes, leaks;

static void flush_dtor(void *value)
{
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* lock_b -> lock_a */
    flushes += *(int *)value;
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
}

static void leak_dtor(void *value)
{
    (void)value;
    OK(pthread_mutex_lock(&lock_c)); /* never unlocked */
    leaks++;
}

static void *take_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *set_key(void *key)
{
    static int one = 1;
    OK(pthread_setspecific(*(pthread_key_t *)key, &one));
    return NULL;
}

int main(void)
{
    OK(pthread_key_create(&flush_key, flush_dtor));
    OK(pthread_key_create(&leak_key, leak_dtor));
    run_thread(take_ab, NULL);
    run_thread(set_key, &flush_key);
    CHECK(flushes == 1);
    run_thread(set_key, &leak_key);
    CHECK(leaks == 1);
    CHECK_RC(pthread_mutex_trylock(&lock_c), EBUSY);
    return 0;
}
