/*
 * birth_race_clean.c - two threads make the records of thousands of new
 * locks at once (birth_race.h); every pair is then taken in one order.
 * No report, and no record left live once every lock is destroyed.
 * Twin: birth_race_inversion.c.
 *
 * OPTIONS: stats=1
 * EXPECT: none
 * EXPECT-STDERR: locks created \(0 live\)
 */
#include "birth_race.h"

int main(void)
{
    return birth_race(0);
}
