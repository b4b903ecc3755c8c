/*
 * entry.h - what the entry files (core.c, acquire.c, lifetime.c, signals.c, waits.c)
 * share among themselves: lock lookup and the acquisition steps that waits
 * and lifetimes reuse.  Not for the layers below (rules/, report/, model/,
 * base/), which never call up into the entry points.
 */
#ifndef ULD_ENTRY_H
#define ULD_ENTRY_H

#include "core.h"

/* acquire.c */
void uld_tag_write(struct uld_lock *l, uint64_t *tag) ULD_HIDDEN;
int uld_destroyed_lock_use(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                           int op, uintptr_t ip) ULD_HIDDEN;
/* The same, given what uld_lock_lookup(addr) just returned. */
int uld_destroyed_lock_use_found(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                                 struct uld_lock *found, int op, uintptr_t ip) ULD_HIDDEN;
struct uld_lock *uld_object_get(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
void uld_fresh_mark(struct uld_thread *t, struct uld_lock *l, struct uld_lockdesc d) ULD_HIDDEN;
void uld_acquire_prepare(struct uld_thread *t, struct uld_acq *a, uintptr_t addr,
                         struct uld_lockdesc d, unsigned mode, unsigned subclass,
                         uintptr_t ip) ULD_HIDDEN;
enum uld_owner_hint uld_owner_hint_of(int owner_tid) ULD_HIDDEN;
/* A recordless entry's acquisition, completed (recordless.c); uld_busy set,
 * the entry popped. */
void uld_acquire_deferred(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                          uintptr_t ip) ULD_HIDDEN;

/* recordless.c */
void uld_recordless_publish(const struct uld_held *h) ULD_HIDDEN;

/* lifetime.c */
void uld_held_drop(struct uld_thread *t, uintptr_t addr) ULD_HIDDEN;

#endif
