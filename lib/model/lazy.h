/*
 * lazy.h - locks initialised without a record until first used (lazy.c),
 * and what the record's type says about readers.
 */
#ifndef ULD_LAZY_H
#define ULD_LAZY_H

#include "lock.h"
#include "thread.h"

/* lazy.c: a lock initialised without a record until first used. */
int uld_lazy_init_quick(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
int uld_lazy_created(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                     uintptr_t ip) ULD_HIDDEN; /* 1: no record needed now */
/* Its record, made from the pending tag in the object (NULL if none).  graph_lock held. */
struct uld_lock *uld_lazy_record(uintptr_t addr, struct uld_lockdesc d) ULD_HIDDEN;
/* The same for an annotation by the initialising thread.  graph_lock held. */
struct uld_lock *uld_lazy_record_mine(struct uld_thread *t, uintptr_t addr) ULD_HIDDEN;
int uld_lazy_destroyed(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d) ULD_HIDDEN;
/* Destroyed (successfully) before it was ever recorded: 1 if nothing else to do.  Lock-free. */
int uld_lazy_destroy_unseen(uintptr_t addr, struct uld_lockdesc d) ULD_HIDDEN;
/* Does the object carry a pending tag (initialised, no record yet)?  Lock-free. */
int uld_lazy_pending(struct uld_lockdesc d) ULD_HIDDEN;
/* A lock seen for the first time (no init call): lockmap.c. graph_lock held. */
struct uld_lock *uld_lock_first_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
/* Does this lock let readers in while a writer waits? */
static inline int uld_read_is_recursive(const struct uld_lock *l)
{
    if (l->type == ULD_TYPE_RWLOCK)
        return !(l->flags & ULD_LF_WRITER_PREF);
    return l->type == ULD_TYPE_CUSTOM && (l->flags & ULD_LF_READ_RECURSIVE);
}


#endif
