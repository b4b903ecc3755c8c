/*
 * assert_held.c - uld_assert_held() while lock_m is held (passes), then
 * after it was released (fails).
 *
 * Only the second assertion is false: one assert-not-held report naming
 * lock_m.  Without the validator uld_assert_held() does nothing, so the
 * program runs natively too.
 *
 * EXPECT: assert-not-held lock_m
 */
#include "progs.h"

static pthread_mutex_t lock_m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void counter_inc(void)
{
    uld_assert_held(&lock_m); /* callers must hold lock_m */
    counter++;
}

int main(void)
{
    OK(pthread_mutex_lock(&lock_m));
    counter_inc();
    OK(pthread_mutex_unlock(&lock_m));
    counter_inc(); /* bug: lock_m not held */
    CHECK(counter == 2);
    return 0;
}
