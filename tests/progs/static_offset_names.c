/*
 * static_offset_names.c - mutexes inside a static array of structs,
 * inverted: table[0].lock -> table[1].lock, then the reverse.
 *
 * A static lock not at its symbol's start is named symbol+0xOFF
 * (docs/reports.md): .lock sits at offset 8 of a 48-byte slot (checked at
 * compile time), so the names are table+0x8 and table+0x38.
 *
 * EXPECT: lock-order-inversion table+0x8 table+0x38
 */
#include "progs.h"

#include <stddef.h>

struct slot {
    int id;
    pthread_mutex_t lock;
};
_Static_assert(offsetof(struct slot, lock) == 0x8, "lock at table+0x8");
_Static_assert(sizeof(struct slot) + offsetof(struct slot, lock) == 0x38, "next at table+0x38");

static struct slot table[2] = {
    {1, PTHREAD_MUTEX_INITIALIZER},
    {2, PTHREAD_MUTEX_INITIALIZER},
};

static void *nest(void *arg)
{
    struct slot *first = arg, *second = &table[first == &table[0] ? 1 : 0];
    OK(pthread_mutex_lock(&first->lock));
    OK(pthread_mutex_lock(&second->lock));
    OK(pthread_mutex_unlock(&second->lock));
    OK(pthread_mutex_unlock(&first->lock));
    return NULL;
}

int main(void)
{
    run_thread(nest, &table[0]);
    run_thread(nest, &table[1]);
    return 0;
}
