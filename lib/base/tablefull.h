/*
 * tablefull.h - a fixed-size table filled up, so new entries are dropped.
 * Any layer announces it here (lock-free, signal-safe, once per table); the
 * report layer turns each announcement into a report at its next flush, so
 * the layers that own tables never call up into reporting.
 */
#ifndef ULD_TABLEFULL_H
#define ULD_TABLEFULL_H

#include "internal.h"

/* table: a string literal naming it; option: the option that raises the
 * limit, or NULL. */
void uld_table_full(const char *table, long limit, const char *option) ULD_HIDDEN;

struct uld_table_full {
    const char *table, *option;
    long limit;
};
/* Announcements not yet taken: flushes test it with one load. */
extern _Atomic unsigned uld_tables_full_untaken ULD_HIDDEN;
static inline int uld_table_full_pending(void)
{
    return atomic_load_explicit(&uld_tables_full_untaken, memory_order_relaxed) != 0;
}
/* The next announcement not yet taken: 1 and *out filled, or 0. */
int uld_table_full_take(struct uld_table_full *out) ULD_HIDDEN;

#endif
