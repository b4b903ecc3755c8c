/*
 * robust_lazy_symbolizer_report.c - twin of robust_lazy_symbolizer_clean.c:
 * an ABBA, so a report needs symbols.  libdw is loaded then (and only
 * then: before the report none of the symboliser's libraries is mapped),
 * and the report's frames still carry function and file:line.  The dead
 * DEBUGINFOD_URLS (a closed port) must not stop the report.
 *
 * ENV: DEBUGINFOD_URLS=http://127.0.0.1:9
 * EXPECT: lock-order-inversion lock_a lock_b
 * EXPECT-STDERR: ba_order\+0x[0-9a-f]+ \(.*robust_lazy_symbolizer_report\.c:{{line:ba}}\)
 * EXPECT-STDERR: ^mapped: .*?/libdw
 */
#include "robust_lazy_symbolizer.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *ab_order(void *arg)
{
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return arg;
}

static void *ba_order(void *arg)
{
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* @line:ba */
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    return arg;
}

int main(void)
{
    run_thread(ab_order, NULL);
    CHECK(mapped_libraries(symbolizer_libs, 6) == 0); /* nothing reported yet */
    run_thread(ba_order, NULL);
    if (getenv("ULOCKDEP_OPTIONS")) /* under the validator: the report loaded it */
        CHECK(mapped_libraries(symbolizer_libs, 2) >= 1);
    return 0;
}
