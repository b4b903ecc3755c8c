/*
 * robust_dlsym_lock_clean.c - clean twin of robust_dlsym_lock.c: the same
 * mix of direct calls and calls through pointers from dlsym(RTLD_NEXT) and
 * dlsym(RTLD_DEFAULT), locks always lock_a -> lock_b.
 *
 * One order, nothing can deadlock; every unlock pairs with its lock
 * whichever way each was called (a validator that saw only one of the two
 * would report unlock-not-held or exit-holding).  pthread_cond_wait is
 * looked up too, by version (dlvsym, GLIBC_2.3.2, the ABI programs use),
 * and a wait through it, signalled by another thread, must work and leave
 * its mutex held.  The counts are checked.  The one report is the trylock
 * of lock_a that checks it is held again after the wait: a trylock of a
 * lock the thread holds is a trylock-held warning.
 *
 * EXPECT: trylock-held lock_a
 */
#include "progs.h"

#include <dlfcn.h>

typedef int lock_fn(pthread_mutex_t *);
typedef int wait_fn(pthread_cond_t *, pthread_mutex_t *);

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static lock_fn *next_lock, *next_unlock, *default_lock, *default_unlock;
static wait_fn *cond_wait;
static int count, ready;

static void *sym(void *p)
{
    CHECK(p != NULL);
    return p;
}

static void *ab(void *arg)
{
    for (int i = 0; i < 100; i++) {
        OK((i % 2 ? next_lock : default_lock)(&lock_a));
        OK(i % 3 ? next_lock(&lock_b) : pthread_mutex_lock(&lock_b));
        count++;
        OK(i % 5 ? default_unlock(&lock_b) : pthread_mutex_unlock(&lock_b));
        OK((i % 2 ? pthread_mutex_unlock : next_unlock)(&lock_a));
    }
    return arg;
}

static void *signaller(void *arg)
{
    OK(next_lock(&lock_a));
    ready = 1;
    OK(pthread_cond_signal(&cv));
    OK(default_unlock(&lock_a));
    return arg;
}

int main(void)
{
    *(void **)&next_lock = sym(dlsym(RTLD_NEXT, "pthread_mutex_lock"));
    *(void **)&next_unlock = sym(dlsym(RTLD_NEXT, "pthread_mutex_unlock"));
    *(void **)&default_lock = sym(dlsym(RTLD_DEFAULT, "pthread_mutex_lock"));
    *(void **)&default_unlock = sym(dlsym(RTLD_DEFAULT, "pthread_mutex_unlock"));
    *(void **)&cond_wait = sym(dlvsym(RTLD_DEFAULT, "pthread_cond_wait", "GLIBC_2.3.2"));
    pthread_t t[2] = {spawn_thread(ab, NULL), spawn_thread(ab, NULL)};
    join_thread(t[0]);
    join_thread(t[1]);
    CHECK(count == 200);

    OK(default_lock(&lock_a));
    pthread_t s = spawn_thread(signaller, NULL);
    while (!ready)
        OK(cond_wait(&cv, &lock_a));
    CHECK_RC(pthread_mutex_trylock(&lock_a), EBUSY); /* held again after the wait */
    OK(next_unlock(&lock_a));
    join_thread(s);
    return 0;
}
