/*
 * lazy.c - locks that live only in their own memory until first used.
 *
 * Per-request objects with their own mutex are common in servers, and most
 * such mutexes are initialised and destroyed far more often than a new
 * class appears.  pthread_mutex_init / pthread_rwlock_init at a call site
 * whose class is known (class.c's site cache), by a thread holding no lock
 * (so nothing about the lock's birth needs remembering, see "fresh" in
 * core.c), makes no record: the lock's class index and instance ordinal go
 * into its identity tag word (locktype.h) as a pending tag, for one atomic add
 * on the class's instance count.  The first acquisition or unlock (which
 * see the tag) or an annotation by the initialising thread (which does not
 * know where the tag is: the thread remembers its last few pending inits)
 * makes the record from it, with the class and ordinal init would have
 * given; a destroy before that clears the tag.  A lock created and
 * destroyed without being locked costs no global lock, no stack capture
 * and no record.
 */
#include <errno.h>

#include "lazy.h"
#include "state.h"
#include "lock.h"
#include "tomb.h"

#define PENDING_MAX_CLASS 0xffffu /* pending tags (lock.h): "UP" above the class index */

static int is_pending(uint64_t tag)
{
    return uld_tag_is_pending(tag);
}

static void forget_mine(struct uld_thread *t, uintptr_t addr)
{
    for (unsigned i = 0; i < ULD_PENDING_INITS; i++)
        if (t->pending[i].addr == addr)
            t->pending[i].addr = 0;
}

/* Whatever this thread initialised at addr before is gone: made anew, not lazily. */
static int eager(struct uld_thread *t, uintptr_t addr)
{
    forget_mine(t, addr);
    return 0;
}

/*
 * Instance ordinals (the #n of a lock's name) without a shared write per
 * init, and the class without a look-up in the shared site cache: each
 * thread keeps its last few init sites (a cached site is its class's only
 * key, so a site stands for a class) with the ordinals it reserved there.
 * The class's count is the one shared word.  A thread takes one ordinal at
 * a time, in creation order, until it has seen ORD_CONTENDED of its takes
 * at a site interleaved with other threads' (inits there run concurrently,
 * so their order is a race anyway); from then on it takes them ORD_BLOCK at
 * a time and hands them out from here: unique, in order per thread, with
 * gaps where a block is left unused (thread end, a fifth busy site).
 * Programs that do not create locks at one site from several threads at
 * once keep exact creation-order numbers.  An entry is good while the
 * shared cache's generation is unchanged (a module unload clears sites).
 */
#define ORD_BLOCK 64
#define ORD_CONTENDED ULD_ORD_CONTENDED

/* Fill e for the site ip (another site's, or an older generation's before). */
static int site_fill(struct uld_init_site *e, uintptr_t ip, uint32_t gen)
{
    struct uld_class *c = uld_class_of_init_site(ip);
    if (!c || c->index > PENDING_MAX_CLASS)
        return 0;
    *e = (struct uld_init_site){.ip = ip, .cls = c, .gen = gen,
                                .tag_class = ULD_PENDING_MAGIC | (uint64_t)c->index << 32};
    return 1;
}

/*
 * The rest of uld_lazy_tag_pending (fastpath.h): a site to (re)fill, whose
 * first ordinal has nothing to be compared with, or a contended site whose
 * block is used up.
 */
int uld_lazy_tag_pending_slow(struct uld_thread *t, uintptr_t addr, uint64_t *tag_word,
                              uintptr_t ip)
{
    struct uld_init_site *e = &t->init_sites[ip % ULD_INIT_SITES];
    uint32_t gen = atomic_load_explicit(&uld_init_sites_gen, memory_order_relaxed);
    uint32_t ordinal;
    if (e->ip != ip || e->gen != gen) {
        if (!site_fill(e, ip, gen))
            return 0;
        ordinal = __atomic_fetch_add(&e->cls->ninstances, 1, __ATOMIC_RELAXED) + 1;
    } else { /* contended: reserve a block */
        ordinal = __atomic_fetch_add(&e->cls->ninstances, ORD_BLOCK, __ATOMIC_RELAXED) + 1;
        e->end = ordinal + ORD_BLOCK;
    }
    e->next = ordinal + 1;
    uld_lazy_tag_store(t, addr, tag_word, e->tag_class | ordinal);
    return 1;
}

static int lazy_kind(struct uld_lockdesc d)
{
    return d.tag && (d.type == ULD_TYPE_MUTEX || d.type == ULD_TYPE_RWLOCK);
}

/*
 * The common init, before any validator bookkeeping: a tagged mutex or
 * rwlock, a thread holding nothing, no record at addr (its granule bits, a
 * load or two: none, or an older lifetime's tombstone), a cached site.  Only the recursion
 * guard is taken (a signal handler initialising a lock meanwhile must not
 * share this thread's site slots); the fast path's state is untouched.
 */
int uld_lazy_init_quick(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    struct uld_thread *t = uld_self;
    if (unlikely(atomic_load_explicit(&uld_state, memory_order_acquire) != ULD_STATE_READY) ||
        uld_busy || !t || t == ULD_THREAD_DEAD || t->depth || !lazy_kind(d) ||
        uld_lockmap_may_have_record(addr))
        return 0;
    uld_busy = 1;
    int done = uld_lazy_tag_pending(t, addr, d.tag, ip);
    uld_busy = 0;
    return done;
}

/* The general case (validator entered). */
int uld_lazy_created(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    if (!lazy_kind(d) || t->depth || uld_lock_lookup(addr))
        return eager(t, addr);
    return uld_lazy_tag_pending(t, addr, d.tag, ip) || eager(t, addr);
}

struct uld_class *uld_lazy_class(uint64_t tag)
{
    return uld_class_by_index((uint32_t)(tag >> 32) & PENDING_MAX_CLASS);
}

static struct uld_lock *record_from(uintptr_t addr, uint64_t tag, struct uld_lockdesc d)
{
    struct uld_class *c = uld_lazy_class(tag);
    if (!c || c->k.kind != ULD_SITE_INIT || c->k.subclass)
        return NULL;
    struct uld_lock *l = uld_lock_create_initialised(addr, d, c, (uint32_t)tag);
    if (l)
        l->from_pending = 1;
    return l;
}

int uld_lazy_is_from(const struct uld_lock *l, uint64_t tag)
{
    return l->from_pending && is_pending(tag) && l->ordinal == (uint32_t)tag &&
           l->cls == uld_lazy_class(tag);
}

struct uld_lock *uld_lazy_record_at(uintptr_t addr, const uint64_t *tag_word, uint64_t tag)
{
    struct uld_lock *l = uld_lock_lookup(addr);
    if (l) /* made from this tag, or the tag's lifetime is over */
        return uld_lazy_is_from(l, tag) ? l : NULL;
    uint64_t now;
    struct uld_class *c = uld_lazy_class(tag);
    if (!c || !uld_read_word(tag_word, &now) || now != tag)
        return NULL; /* destroyed, made again, or its memory gone */
    return record_from(addr, tag, (struct uld_lockdesc){.type = c->type, .flags = 0, .tag = NULL});
}

struct uld_lock *uld_lazy_record(uintptr_t addr, struct uld_lockdesc d)
{
    if (!d.tag)
        return NULL;
    uint64_t tag = __atomic_load_n(d.tag, __ATOMIC_RELAXED);
    return is_pending(tag) ? record_from(addr, tag, d) : NULL;
}

struct uld_lock *uld_lazy_record_mine(struct uld_thread *t, uintptr_t addr)
{
    for (unsigned i = 1; i <= ULD_PENDING_INITS; i++) { /* the newest first */
        struct uld_pending_init *p = &t->pending[(t->pending_next - i) % ULD_PENDING_INITS];
        if (p->addr != addr)
            continue;
        p->addr = 0;
        if (__atomic_load_n(p->tag_word, __ATOMIC_RELAXED) != p->tag)
            return NULL; /* initialised again, or already recorded */
        /* its type is its class's: one init site initialises one kind of lock */
        struct uld_lockdesc d = {.type = ULD_TYPE_MUTEX, .flags = 0, .tag = p->tag_word};
        struct uld_class *c = uld_class_by_index((uint32_t)(p->tag >> 32) & PENDING_MAX_CLASS);
        if (c)
            d.type = c->type;
        return record_from(addr, p->tag, d);
    }
    return NULL;
}

/*
 * The destroy of a lock that was never recorded in this lifetime: a
 * pending tag, and no granule bit at addr, so no record (an annotation may
 * have made one) and nothing buried there.  Only its tag changes (to the
 * destroy's site, for a later use's report);
 * no thread state is touched (the initialising thread's pending entry may
 * stay: uld_lazy_record_mine checks the tag word, which no longer holds its
 * tag), so the caller need not enter the validator.  1: done.
 */
int uld_lazy_destroy_unseen(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    if (!d.tag || (d.flags & ULD_LF_DESTROYED) ||
        !is_pending(__atomic_load_n(d.tag, __ATOMIC_RELAXED)) || uld_lockmap_marked(addr))
        return 0;
    __atomic_store_n(d.tag, uld_tag_dead(ip), __ATOMIC_RELAXED);
    return 1;
}

/*
 * The destroy of a lazily initialised lock, validator entered.  A recorded
 * lock's pending entry is stale already (its tag is a live one now).  A
 * tombstone at addr without a record is an older lifetime's (a lazy init
 * does not end it: the first acquisition's record would, under graph_lock
 * anyway): it goes now, so the next lifetime's init and destroy find the
 * address clean, and a use of this lock after its destroy is not reported
 * under the older one's name (a mutex is still caught by glibc's mark).
 */
int uld_lazy_destroyed(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                       uintptr_t ip)
{
    if (!d.tag || !is_pending(__atomic_load_n(d.tag, __ATOMIC_RELAXED)))
        return 0;
    __atomic_store_n(d.tag, uld_tag_dead(ip), __ATOMIC_RELAXED);
    forget_mine(t, addr);
    if (uld_lockmap_tomb_marked(addr)) {
        int saved = errno;
        uld_mutex_lock(&uld_graph_lock);
        if (!uld_lock_lookup(addr))
            uld_tomb_drop(addr);
        uld_mutex_unlock(&uld_graph_lock);
        errno = saved;
    }
    return 1;
}

