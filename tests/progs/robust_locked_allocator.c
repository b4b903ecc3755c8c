/*
 * robust_locked_allocator.c - the program's malloc comes from a shared
 * library (librobust_alloc.so, robust/robust_alloc.c, linked normally, as
 * libjemalloc.so would be) whose allocations take pthread mutexes:
 * alloc_lock, and page_lock nested inside it for large blocks.  The
 * validator's own allocations (symbolisation, thread start-up) go there
 * too, so it must never allocate while holding an internal lock that a
 * thread inside malloc may need.
 *
 * The critical interleaving, made deterministic with a hook of the
 * allocator: thread `big` mallocs a large block and keeps alloc_lock until
 * some other thread waits for it, then takes page_lock (a first-time
 * nesting: the validator's slow path).  Meanwhile main closes an ABBA
 * (lock_a -> lock_b was recorded before, main takes lock_b -> lock_a), so
 * the validator builds a report, and main then mallocs.  Natively main's
 * malloc is the waiter `big` needs; under the validator the report's own
 * allocations may come first.  Either way `big` must get on: had the
 * validator held its graph lock while allocating, `big` (holding
 * alloc_lock, wanting the graph lock) and main (holding the graph lock,
 * wanting alloc_lock) would hang.  Expected: the one ABBA report; the
 * allocator's own alloc_lock -> page_lock order is consistent.  The
 * allocator's counts are checked.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "progs.h"

/* librobust_alloc.so; weak, so a missing library fails a CHECK, not the build */
extern pthread_mutex_t alloc_lock __attribute__((weak));
extern int alloc_hold_for_waiter __attribute__((weak));
extern long alloc_large __attribute__((weak));

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *take_ab(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *big(void *arg)
{
    __atomic_store_n(&alloc_hold_for_waiter, 1, __ATOMIC_RELEASE);
    void *p = malloc(1 << 20); /* holds alloc_lock until main waits for it */
    CHECK(p != NULL);
    free(p);
    return arg;
}

int main(void)
{
    if (!&alloc_lock)
        fprintf(stderr, "librobust_alloc.so not linked (is add_subdirectory(robust) missing?)\n");
    CHECK(&alloc_lock && &alloc_hold_for_waiter && &alloc_large);
    run_thread(take_ab, NULL);
    long large = alloc_large;

    pthread_t t = spawn_thread(big, NULL);
    while (__atomic_load_n(&alloc_hold_for_waiter, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&alloc_lock.__data.__lock, __ATOMIC_ACQUIRE) == 0)
        ; /* until `big` holds alloc_lock in its large allocation */
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* lock_b -> lock_a: the report */
    void *p = malloc(16);            /* waits for `big` to release alloc_lock */
    CHECK(p != NULL);
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    join_thread(t);
    free(p);
    CHECK(alloc_large >= large + 1);
    return 0;
}
