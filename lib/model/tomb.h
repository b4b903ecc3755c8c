/*
 * tomb.h - tombstones of destroyed locks (tomb.c): use-after-destroy.
 * Everything here runs under graph_lock.
 */
#ifndef ULD_TOMB_H
#define ULD_TOMB_H

#include "lock.h"

struct uld_thread;

/* What the program did with a destroyed lock (report wording). */
enum uld_dead_op { ULD_DEAD_LOCK, ULD_DEAD_UNLOCK, ULD_DEAD_DESTROY };

/*
 * pthread_*_destroy of l at addr succeeded (ip: its call site, 0 unknown):
 * l leaves the address table and is kept as addr's tombstone.  pre: the
 * object as it was before the destroy (its tag may be written).
 */
void uld_tomb_bury(struct uld_lock *l, uintptr_t addr, struct uld_lockdesc pre,
                   uintptr_t ip) ULD_HIDDEN;
/* A use of a destroyed lock to report: its retired record, named with the
 * id it had, and where it was destroyed (0 unknown). */
struct uld_dead_use {
    struct uld_lock *rec;
    uint32_t id;
    uintptr_t destroy_ip;
};
/*
 * A lock call at addr, which has no live record: 1 if the object is still
 * a destroyed lock (the caller leaves the call to the program), 0 if not (a
 * stale tombstone is dropped).  out->rec is set the first time a tombstone
 * is used: the caller reports it.
 */
int uld_tomb_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip,
                 struct uld_dead_use *out) ULD_HIDDEN;
/* A new lifetime at addr, or memory freed (lockmap.c walks the range): the
 * tombstone there ends.  drop also clears addr's granule if it is empty. */
void uld_tomb_drop(uintptr_t addr) ULD_HIDDEN;
void uld_tomb_end(uintptr_t addr) ULD_HIDDEN; /* the same, a lock is created at addr */
int uld_tomb_at(uintptr_t addr) ULD_HIDDEN;

#endif
