/*
 * robust_reload.c - built twice, as librobust_reload_a.so (-DRELOAD_VARIANT=a)
 * and librobust_reload_b.so (-DRELOAD_VARIANT=b), for the robust_dlreload_*
 * programs of tests/progs/.
 *
 * The two builds differ only in the names of their static locks and of the
 * function that initialises their heap lock (first_a/first_b,
 * second_a/second_b, make_lock_a/make_lock_b): code and data have the same
 * layout, so when one is unloaded and the other is loaded at the same
 * address, each static lock and each init call site of the second sits
 * exactly where the first one's was.  The entry points have one name in
 * both builds.  Every entry point returns a value the program checks.
 * Nothing here depends on the validator.
 */
#include <pthread.h>
#include <stdlib.h>

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define NAMED(x) CAT(x, RELOAD_VARIANT)

static pthread_mutex_t NAMED(first) = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t NAMED(second) = PTHREAD_MUTEX_INITIALIZER;
static long counter;

/* first -> second */
long reload_forward(void)
{
    if (pthread_mutex_lock(&NAMED(first)) || pthread_mutex_lock(&NAMED(second)))
        return -1;
    long v = ++counter;
    pthread_mutex_unlock(&NAMED(second));
    pthread_mutex_unlock(&NAMED(first));
    return v;
}

/* second -> first */
long reload_backward(void)
{
    if (pthread_mutex_lock(&NAMED(second)) || pthread_mutex_lock(&NAMED(first)))
        return -1;
    long v = ++counter;
    pthread_mutex_unlock(&NAMED(first));
    pthread_mutex_unlock(&NAMED(second));
    return v;
}

/* A heap lock whose class is this init call site. */
__attribute__((noinline)) static pthread_mutex_t *NAMED(make_lock)(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    if (m && pthread_mutex_init(m, NULL) != 0) {
        free(m);
        m = NULL;
    }
    return m;
}

pthread_mutex_t *reload_make(void)
{
    return NAMED(make_lock)();
}

/* first -> m (forward != 0), else m -> first */
long reload_with(pthread_mutex_t *m, int forward)
{
    pthread_mutex_t *outer = forward ? &NAMED(first) : m, *inner = forward ? m : &NAMED(first);
    if (pthread_mutex_lock(outer) || pthread_mutex_lock(inner))
        return -1;
    long v = ++counter;
    pthread_mutex_unlock(inner);
    pthread_mutex_unlock(outer);
    return v;
}
