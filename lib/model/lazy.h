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
/* The class a pending tag names, or NULL. */
struct uld_class *uld_lazy_class(uint64_t tag) ULD_HIDDEN;
/* Is l the record of the lifetime pending tag `tag` names (same class, same ordinal)? */
int uld_lazy_is_from(const struct uld_lock *l, uint64_t tag) ULD_HIDDEN;
/* The record of the lifetime `tag` names at addr, made if none, when the
 * object (maybe gone: read safely) still says so; else NULL.  For other
 * threads' recordless entries and needs.  graph_lock held. */
struct uld_lock *uld_lazy_record_at(uintptr_t addr, const uint64_t *tag_word, uint64_t tag) ULD_HIDDEN;
/* The same for an annotation by the initialising thread.  graph_lock held. */
struct uld_lock *uld_lazy_record_mine(struct uld_thread *t, uintptr_t addr) ULD_HIDDEN;
int uld_lazy_destroyed(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                       uintptr_t ip) ULD_HIDDEN;
/* Destroyed (successfully) before it was ever recorded: 1 if nothing else to do.  Lock-free. */
int uld_lazy_destroy_unseen(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
/* A lock seen for the first time (no init call): lockmap.c. graph_lock held. */
struct uld_lock *uld_lock_first_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip) ULD_HIDDEN;
/* Does this lock let readers in while a writer waits? */
static inline int uld_read_is_recursive(const struct uld_lock *l)
{
    if (l->type == ULD_TYPE_RWLOCK)
        return !(l->flags & ULD_LF_WRITER_PREF);
    return l->type == ULD_TYPE_CUSTOM && (l->flags & ULD_LF_READ_RECURSIVE);
}


/*
 * Lock lifetimes (lazy.c).  A lock initialised by a thread that holds
 * nothing, at an address with no record (no granule bit, or an older
 * lifetime's tombstone: so a re-initialisation has nothing to check either),
 * at a call site whose class is cached, is only a pending tag in its
 * object; a destroy before its first use, where nothing was buried, only
 * clears that tag.  These are the whole
 * cost of a lock created and destroyed unused; fastpath.h inlines them
 * into the interposer's wrappers.
 */
#define ULD_ORD_CONTENDED 8 /* see lazy.c: sites whose ordinals are taken in blocks */
int uld_lazy_tag_pending_slow(struct uld_thread *t, uintptr_t addr, uint64_t *tag_word,
                              uintptr_t ip) ULD_HIDDEN;

/* Write a pending tag; the thread remembers it for an annotation (lazy.c). */
static inline __attribute__((always_inline)) void
uld_lazy_tag_store(struct uld_thread *t, uintptr_t addr, uint64_t *tag_word, uint64_t tag)
{
    __atomic_store_n(tag_word, tag, __ATOMIC_RELAXED);
    struct uld_pending_init *p = &t->pending[t->pending_next++ % ULD_PENDING_INITS];
    *p = (struct uld_pending_init){addr, tag_word, tag};
}

/*
 * Tag the lock at addr pending with its class and ordinal (lazy.c); 0: not
 * a cached site.  Inline while the thread's slot for the site is good: an
 * uncontended site takes its ordinal from the class's count (creation
 * order), a contended one from the block it reserved there.  uld_busy is
 * set: a signal handler initialising a lock meanwhile must not take from or
 * refill this thread's site slots.
 */
static inline __attribute__((always_inline)) int
uld_lazy_tag_pending(struct uld_thread *t, uintptr_t addr, uint64_t *tag_word, uintptr_t ip)
{
    struct uld_init_site *e = &t->init_sites[ip % ULD_INIT_SITES];
    if (__builtin_expect(e->ip != ip || e->gen != atomic_load_explicit(&uld_init_sites_gen,
                                                                       memory_order_relaxed), 0))
        return uld_lazy_tag_pending_slow(t, addr, tag_word, ip);
    uint32_t ordinal;
    if (__builtin_expect(e->interleaved < ULD_ORD_CONTENDED, 1)) {
        ordinal = __atomic_fetch_add(&e->cls->ninstances, 1, __ATOMIC_RELAXED) + 1;
        if (__builtin_expect(ordinal != e->next, 0)) /* another thread's in between */
            e->interleaved++;
    } else {
        ordinal = e->next;
        if (__builtin_expect(ordinal >= e->end, 0))
            return uld_lazy_tag_pending_slow(t, addr, tag_word, ip);
    }
    e->next = ordinal + 1;
    uld_lazy_tag_store(t, addr, tag_word, e->tag_class | ordinal);
    return 1;
}

#endif
