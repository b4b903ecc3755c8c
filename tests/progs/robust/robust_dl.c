/*
 * robust_dl.c - librobust_dl.so, dlopen'ed by tests/progs/robust_dlopen*.c.
 *
 * Two static locks of the library's own (never passed to an init call,
 * named by their symbols), a heap lock it creates on request, and entry
 * points that take them, some of them calling back into the program with a
 * library lock held.  Every entry point returns a value the program checks.
 * Nothing here depends on the validator.
 */
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t lib_table = PTHREAD_RWLOCK_INITIALIZER;
static long lib_counter;

/* lib_lock -> (whatever cb takes): the callback runs with lib_lock held. */
long lib_call_locked(void (*cb)(void *), void *arg)
{
    if (pthread_mutex_lock(&lib_lock) != 0)
        return -1;
    cb(arg);
    long v = ++lib_counter;
    if (pthread_mutex_unlock(&lib_lock) != 0)
        return -1;
    return v;
}

/* lib_lock alone: the program may call it with its own locks held. */
long lib_bump(void)
{
    if (pthread_mutex_lock(&lib_lock) != 0)
        return -1;
    long v = ++lib_counter;
    if (pthread_mutex_unlock(&lib_lock) != 0)
        return -1;
    return v;
}

/* lib_table(r) -> lib_lock: the library's own consistent nesting. */
long lib_read_counter(void)
{
    long v = -1;
    if (pthread_rwlock_rdlock(&lib_table) != 0)
        return -1;
    if (pthread_mutex_lock(&lib_lock) == 0) {
        v = lib_counter;
        pthread_mutex_unlock(&lib_lock);
    }
    pthread_rwlock_unlock(&lib_table);
    return v;
}

/* A heap mutex initialised here (its class is this call site). */
__attribute__((noinline)) pthread_mutex_t *lib_new_lock(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    if (m && pthread_mutex_init(m, NULL) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

/* m -> (whatever cb takes), from library code. */
int lib_with_lock(pthread_mutex_t *m, void (*cb)(void *), void *arg)
{
    if (pthread_mutex_lock(m) != 0)
        return -1;
    cb(arg);
    return pthread_mutex_unlock(m);
}
