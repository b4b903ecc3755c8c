/*
 * lifecycle_unlocked_misuse.c - misuse of locks that were initialised but
 * never locked: main unlocks one (never locked) and asserts it holds
 * another (never locked).
 *
 * Such a lock is a known lock of its init site's class from its init on,
 * whether or not it was ever acquired: the unlock is an unlock of a lock
 * not held (not of memory never initialised as a lock), named by its init
 * site and instance number (make_lock:LINE#2, the 2nd lock of that site);
 * the failed assertion names the 3rd the same way.
 *
 * EXPECT: unlock-not-held make_lock:*#2
 * EXPECT: assert-not-held make_lock:*#3
 */
#include "progs.h"

static __attribute__((noinline)) void make_lock(pthread_mutex_t *m)
{
    OK(pthread_mutex_init(m, NULL));
}

int main(void)
{
    pthread_mutex_t first, second, third; /* on the stack: named by site, not symbol */
    make_lock(&first);
    make_lock(&second);
    make_lock(&third);
    pthread_mutex_unlock(&second); /* never locked: misuse, whatever it returns */
    uld_assert_held(&third);
    OK(pthread_mutex_lock(&first));
    OK(pthread_mutex_unlock(&first));
    return 0;
}
