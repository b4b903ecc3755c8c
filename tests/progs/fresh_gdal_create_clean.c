/*
 * fresh_gdal_create_clean.c - GDAL 3.6's CPLCreateOrAcquireMutexEx: a
 * global "creation" mutex guards the lazy creation of every other mutex;
 * a new mutex is initialised and locked for the first time while the
 * global one is held, and only then published.  Later, holding that
 * mutex, the code creates another one the same way (gdal_translate does
 * this single-threaded at start-up).
 *
 * Recorded naively that is global -> driver (first creation) and
 * driver -> global (the second creation under driver): a cycle.  But the
 * first acquisition of a lock that no other thread has reached since its
 * init cannot block, so it adds no dependency from the locks held since
 * the init (like a trylock).  Every later acquisition counts: worker
 * threads then take driver (blocking, after the creation) and nest
 * driver -> other, all in one order.  Nothing can deadlock.
 *
 * EXPECT: none
 */
#include "progs.h"

static pthread_mutex_t global_mutex = PTHREAD_MUTEX_INITIALIZER; /* hCOAMutex */
static pthread_mutex_t *driver_mutex, *other_mutex;

/* CPLCreateMutexInternal: mutexes are created in the locked state. */
static __attribute__((noinline)) pthread_mutex_t *create_mutex_locked(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    pthread_mutexattr_t attr;
    CHECK(m != NULL);
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
    OK(pthread_mutex_init(m, &attr));
    OK(pthread_mutexattr_destroy(&attr));
    OK(pthread_mutex_lock(m));
    return m;
}

/* CPLCreateOrAcquireMutexEx: returns with *ph locked. */
static __attribute__((noinline)) void create_or_acquire(pthread_mutex_t **ph)
{
    OK(pthread_mutex_lock(&global_mutex));
    if (*ph == NULL) {
        *ph = create_mutex_locked(); /* published while still held */
        OK(pthread_mutex_unlock(&global_mutex));
    } else {
        OK(pthread_mutex_unlock(&global_mutex));
        OK(pthread_mutex_lock(*ph));
    }
}

static void *driver_user(void *arg)
{
    for (int i = 0; i < 3; i++) {
        create_or_acquire(&driver_mutex);
        create_or_acquire(&other_mutex);
        OK(pthread_mutex_unlock(other_mutex));
        OK(pthread_mutex_unlock(driver_mutex));
    }
    return arg;
}

int main(void)
{
    create_or_acquire(&driver_mutex);  /* global held: init + first lock */
    create_or_acquire(&other_mutex);   /* driver held: global, then a new one */
    OK(pthread_mutex_unlock(other_mutex));
    OK(pthread_mutex_unlock(driver_mutex));
    pthread_t t1 = spawn_thread(driver_user, NULL);
    pthread_t t2 = spawn_thread(driver_user, NULL);
    join_thread(t1);
    join_thread(t2);
    return 0;
}
