/*
 * robust_dlsym_lock.c - a program that calls pthread_mutex_lock and
 * pthread_mutex_unlock through pointers it looked up itself, with
 * dlsym(RTLD_NEXT, ...) and dlsym(RTLD_DEFAULT, ...), as programs with
 * optional or late-bound threading do.
 *
 * From the main program, RTLD_DEFAULT finds the first definition in the
 * global scope and RTLD_NEXT the first one after the program: with the
 * library preloaded, both are its wrappers, so these calls are seen like
 * direct ones.  The first thread takes lock_a -> lock_b through the
 * RTLD_NEXT pointers, the second lock_b -> lock_a through the RTLD_DEFAULT
 * ones: run concurrently they deadlock, so one lock-order-inversion.
 * Direct calls and pointer calls are mixed on the same locks (lock through
 * a pointer, unlock directly and the other way round), which must pair up
 * without unlock-not-held.  The count is checked.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

#include <dlfcn.h>

typedef int lock_fn(pthread_mutex_t *);

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static lock_fn *next_lock, *next_unlock, *default_lock, *default_unlock;
static int count;

static lock_fn *find(void *where, const char *name)
{
    lock_fn *f;
    *(void **)&f = dlsym(where, name);
    CHECK(f != NULL);
    return f;
}

static void *ab_next(void *arg)
{
    OK(next_lock(&lock_a));
    OK(next_lock(&lock_b));
    count++;
    OK(pthread_mutex_unlock(&lock_b)); /* locked through a pointer, unlocked directly */
    OK(next_unlock(&lock_a));
    return arg;
}

static void *ba_default(void *arg)
{
    OK(default_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* lock_b -> lock_a: closes the cycle */
    count++;
    OK(default_unlock(&lock_a)); /* locked directly, unlocked through a pointer */
    OK(default_unlock(&lock_b));
    return arg;
}

int main(void)
{
    next_lock = find(RTLD_NEXT, "pthread_mutex_lock");
    next_unlock = find(RTLD_NEXT, "pthread_mutex_unlock");
    default_lock = find(RTLD_DEFAULT, "pthread_mutex_lock");
    default_unlock = find(RTLD_DEFAULT, "pthread_mutex_unlock");
    run_thread(ab_next, NULL);
    run_thread(ba_default, NULL);
    CHECK(count == 2);
    return 0;
}
