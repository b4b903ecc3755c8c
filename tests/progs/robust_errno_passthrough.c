/*
 * robust_errno_passthrough.c - the lock wrappers hand the program the real
 * function's return value, failures included, and leave errno alone
 * (pthread functions return their error and never touch errno).
 *
 * A helper thread holds busy_m, busy_rw (write) and busy_spin, parked on
 * a barrier, while main checks: timedlock / clocklock ETIMEDOUT, trylock
 * EBUSY, timedlock with a bad timespec EINVAL, rwlock tryrdlock /
 * trywrlock EBUSY and timedrdlock / timedwrlock ETIMEDOUT, spin_trylock
 * EBUSY; then, with nothing held, cond_timedwait and cond_clockwait
 * ETIMEDOUT (the mutex held again after).  errno holds a sentinel before
 * every successful call, first acquisitions in a new thread included, and
 * must still hold it after.  Semaphores and signal calls, which report
 * through errno: robust_errno_sem_signal.c.
 *
 * No thread waits for a lock while holding another, and every unlock is
 * by the owner.  The one report is the trylock of cv_m that checks main
 * holds it again after the waits: a trylock of a lock the thread holds is
 * a trylock-held warning (EBUSY still reaches the program, errno intact).
 *
 * EXPECT: trylock-held cv_m
 */
#include "progs.h"


static pthread_mutex_t busy_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t busy_rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t cv_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_spinlock_t busy_spin;
static pthread_barrier_t held, done;

#define SENTINEL 12345
/* A successful call must leave errno as it was. */
#define KEEPS_ERRNO(call)                                                  \
    do {                                                                   \
        errno = SENTINEL;                                                  \
        OK(call);                                                          \
        CHECK(errno == SENTINEL);                                          \
    } while (0)
static void *holder(void *arg)
{
    KEEPS_ERRNO(pthread_mutex_lock(&busy_m)); /* a new thread's first acquisitions */
    KEEPS_ERRNO(pthread_rwlock_wrlock(&busy_rw));
    KEEPS_ERRNO(pthread_spin_lock(&busy_spin));
    pthread_barrier_wait(&held);
    pthread_barrier_wait(&done);
    KEEPS_ERRNO(pthread_spin_unlock(&busy_spin));
    KEEPS_ERRNO(pthread_rwlock_unlock(&busy_rw));
    KEEPS_ERRNO(pthread_mutex_unlock(&busy_m));
    return arg;
}

int main(void)
{
    OK(pthread_spin_init(&busy_spin, PTHREAD_PROCESS_PRIVATE));
    OK(pthread_barrier_init(&held, NULL, 2));
    OK(pthread_barrier_init(&done, NULL, 2));
    pthread_t t = spawn_thread(holder, NULL);
    pthread_barrier_wait(&held);

    struct timespec soon = in_ms(CLOCK_REALTIME, 20), mono = in_ms(CLOCK_MONOTONIC, 20);
    struct timespec bad = {.tv_sec = 0, .tv_nsec = -1};
    CHECK_RC(pthread_mutex_timedlock(&busy_m, &soon), ETIMEDOUT);
    CHECK_RC(pthread_mutex_clocklock(&busy_m, CLOCK_MONOTONIC, &mono), ETIMEDOUT);
    CHECK_RC(pthread_mutex_timedlock(&busy_m, &bad), EINVAL);
    CHECK_RC(pthread_mutex_trylock(&busy_m), EBUSY);
    CHECK_RC(pthread_rwlock_tryrdlock(&busy_rw), EBUSY);
    CHECK_RC(pthread_rwlock_trywrlock(&busy_rw), EBUSY);
    soon = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_rwlock_timedrdlock(&busy_rw, &soon), ETIMEDOUT);
    CHECK_RC(pthread_rwlock_timedwrlock(&busy_rw, &soon), ETIMEDOUT);
    CHECK_RC(pthread_spin_trylock(&busy_spin), EBUSY);
    pthread_barrier_wait(&done);
    join_thread(t);

    KEEPS_ERRNO(pthread_mutex_lock(&cv_m));
    soon = in_ms(CLOCK_REALTIME, 20);
    CHECK_RC(pthread_cond_timedwait(&cv, &cv_m, &soon), ETIMEDOUT);
    mono = in_ms(CLOCK_MONOTONIC, 20);
    CHECK_RC(pthread_cond_clockwait(&cv, &cv_m, CLOCK_MONOTONIC, &mono), ETIMEDOUT);
    CHECK_RC(pthread_mutex_trylock(&cv_m), EBUSY); /* held again after the waits */
    KEEPS_ERRNO(pthread_mutex_unlock(&cv_m));
    KEEPS_ERRNO(pthread_mutex_lock(&busy_m));
    KEEPS_ERRNO(pthread_rwlock_rdlock(&busy_rw));
    KEEPS_ERRNO(pthread_rwlock_unlock(&busy_rw));
    KEEPS_ERRNO(pthread_mutex_unlock(&busy_m));

    OK(pthread_spin_destroy(&busy_spin));
    return 0;
}
