/*
 * robust_errno_errorcheck.c - error-checking mutexes return EDEADLK and
 * EPERM through the wrappers, and errno survives the reports those calls
 * produce (stack capture, symbolisation and file output happen inside the
 * call, and may fail internally).
 *
 *   ec_self:  relocked by its owner: EDEADLK, and a self-deadlock report
 *             (docs/reports.md: "EDEADLK on error-checking mutexes too";
 *             with a normal mutex this call would hang);
 *   ec_free:  unlocked while nobody holds it: EPERM, unlock-not-held;
 *   ec_other: unlocked by main while a parked thread holds it: EPERM,
 *             unlock-not-owner.
 * The failed calls change nothing, so the owners' later unlocks are fine.
 * errno holds a sentinel before each call and must hold it after (the
 * pthread functions return their error and leave errno alone).  Then an
 * ABBA between two plain mutexes closes with errno set: the
 * lock-order-inversion report must not change errno either.
 *
 * EXPECT: self-deadlock ec_self
 * EXPECT: unlock-not-held ec_free
 * EXPECT: unlock-not-owner ec_other
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

static pthread_mutex_t ec_self, ec_free, ec_other;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t held, done;

#define SENTINEL 54321

static void *holder(void *arg)
{
    OK(pthread_mutex_lock(&ec_other));
    pthread_barrier_wait(&held);
    pthread_barrier_wait(&done);
    OK(pthread_mutex_unlock(&ec_other));
    return arg;
}

static void *take_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

int main(void)
{
    pthread_mutexattr_t attr;
    OK(pthread_mutexattr_init(&attr));
    OK(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK));
    OK(pthread_mutex_init(&ec_self, &attr));
    OK(pthread_mutex_init(&ec_free, &attr));
    OK(pthread_mutex_init(&ec_other, &attr));
    OK(pthread_mutexattr_destroy(&attr));

    OK(pthread_mutex_lock(&ec_self));
    errno = SENTINEL;
    CHECK_RC(pthread_mutex_lock(&ec_self), EDEADLK);
    CHECK(errno == SENTINEL);
    OK(pthread_mutex_unlock(&ec_self));

    errno = SENTINEL;
    CHECK_RC(pthread_mutex_unlock(&ec_free), EPERM);
    CHECK(errno == SENTINEL);

    OK(pthread_barrier_init(&held, NULL, 2));
    OK(pthread_barrier_init(&done, NULL, 2));
    pthread_t t = spawn_thread(holder, NULL);
    pthread_barrier_wait(&held);
    errno = SENTINEL;
    CHECK_RC(pthread_mutex_unlock(&ec_other), EPERM);
    CHECK(errno == SENTINEL);
    pthread_barrier_wait(&done);
    join_thread(t);

    run_thread(take_ab, NULL);
    OK(pthread_mutex_lock(&lock_b));
    errno = SENTINEL;
    OK(pthread_mutex_lock(&lock_a)); /* lock_b -> lock_a: reported here */
    CHECK(errno == SENTINEL);
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return 0;
}
