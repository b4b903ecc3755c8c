/*
 * birth_race_inversion.c - birth_race_clean.c with the first two locks
 * then taken in both orders: one lock-order-inversion naming them (one
 * record each, whichever racing thread made it).
 *
 * EXPECT: lock-order-inversion locks locks+0x28
 */
#include "birth_race.h"

int main(void)
{
    return birth_race(1);
}
