/*
 * tablefull.c - announcements of full tables (tablefull.h).  A slot is
 * claimed with an atomic add, filled, then marked ready; the taker reads
 * ready slots in order.  Tables are few: the first announcement of each is
 * kept, later ones are dropped.
 */
#include "tablefull.h"

#include <string.h>

#define MAX_TABLES 16

static struct {
    struct uld_table_full v;
    _Atomic int ready;
} slots[MAX_TABLES];
static _Atomic unsigned nclaimed, ntaken;
_Atomic unsigned uld_tables_full_untaken;

static int announced(const char *table, unsigned n)
{
    for (unsigned i = 0; i < n && i < MAX_TABLES; i++)
        if (atomic_load_explicit(&slots[i].ready, memory_order_acquire) &&
            !strcmp(slots[i].v.table, table))
            return 1;
    return 0;
}

void uld_table_full(const char *table, long limit, const char *option)
{
    if (announced(table, atomic_load(&nclaimed)))
        return;
    unsigned i = atomic_fetch_add(&nclaimed, 1);
    if (i >= MAX_TABLES)
        return;
    slots[i].v = (struct uld_table_full){table, option, limit};
    atomic_store_explicit(&slots[i].ready, 1, memory_order_release);
    atomic_fetch_add(&uld_tables_full_untaken, 1);
}

int uld_table_full_take(struct uld_table_full *out)
{
    unsigned i = atomic_load(&ntaken);
    while (i < MAX_TABLES && i < atomic_load(&nclaimed)) {
        if (!atomic_load_explicit(&slots[i].ready, memory_order_acquire))
            return 0; /* being filled: the next flush takes it */
        if (atomic_compare_exchange_weak(&ntaken, &i, i + 1)) {
            atomic_fetch_sub(&uld_tables_full_untaken, 1);
            *out = slots[i].v;
            return 1;
        }
    }
    return 0;
}
