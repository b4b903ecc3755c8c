/*
 * lock.h - lock identity: instances (one lock object during one lifetime)
 * and classes (what the kernel calls lock classes: every lock initialised at
 * one call site, one static lock, or an explicit annotation).
 */
#ifndef ULD_LOCK_H
#define ULD_LOCK_H

#include "graph.h"
#include "locktype.h"

enum uld_site_kind {
    ULD_SITE_STATIC,      /* a static/global variable never passed to init */
    ULD_SITE_INIT,        /* the call site of pthread_*_init */
    ULD_SITE_FIRST_USE,   /* heap/stack lock with no init call: first acquisition */
    ULD_SITE_ANNOTATION,  /* uld_lock_set_class() */
};

struct uld_class_key {
    uintptr_t key;        /* site ip (outside lock wrappers), static address, annotation key,
                           * or a hash with ULD_KEY_CHAIN set (see below) */
    uint32_t subclass;
    uint32_t kind;        /* enum uld_site_kind */
};

/*
 * Init classes of sites in code without names (lockmap.c) and first-use
 * classes are keyed by a hash of several frames (the class's site_stack),
 * top bit set: no address looks like that (modules.h).
 */
#define ULD_KEY_CHAIN (1ull << 63)
static inline int uld_key_is_chain(uintptr_t key)
{
    return (key & ULD_KEY_CHAIN) != 0;
}

struct uld_class {
    struct uld_class_key k;
    uint32_t ninstances;  /* atomic: counted at init, also without graph_lock (lazy.c) */
    uint32_t nlive, max_live; /* instances with a record now / at most at once (subclass 0 only) */
    uint32_t index;       /* creation order: uld_class_by_index() */
    uint8_t type;         /* lock type of its first instance */
    char *name;           /* annotation name, else NULL (derived at report time) */
    struct uld_class *base; /* the subclass-0 class */
    uint32_t site_stack;    /* first-use and init classes: the frames that define the class */
    struct uld_node node;
    /* signal context (bit signo-1): taken inside a handler for the signal /
     * taken in normal context with the signal unblocked; a bit in both is a
     * lock its own thread can deadlock on */
    uint64_t sig_in_handler, sig_unblocked, sig_reported;
    uint32_t sig_handler_stack, sig_unblocked_stack;
    uint32_t sig_handler_serial, sig_unblocked_serial;
    uintptr_t sig_handler_ip, sig_unblocked_ip;
    UT_hash_handle hh;
};

/* A (lock, subclass) pair for subclasses > 0; created on first use. */
struct uld_subnode {
    struct uld_node node;
    struct uld_class *cls;
};

/*
 * Condition variables and semaphores.  A thread waiting on one while holding
 * L depends on a waker; if every wake-up seen so far happened with L held
 * (`needed`), the waker needs L first: L -> W -> L is a wait-for cycle.
 * A thread's own wake-ups never end its own (blocking) wait, so they are
 * evidence only about other threads' waits: `waker` and `waiter` say
 * whether one thread alone made them.
 */
#define ULD_MAX_NEEDED 8
#define ULD_MANY_THREADS UINT32_MAX /* waker/waiter: more than one thread */
struct uld_waitobj {
    _Atomic uintptr_t bound_mutex; /* cond: the mutex its current waiters use */
    _Atomic int waiters;           /* cond: threads inside a wait now */
    _Atomic uint32_t waker;        /* serial of the only thread that woke it, 0, or MANY */
    _Atomic uint32_t waiter;       /* the same for waits made holding other locks */
    int woken;                     /* a wake-up was seen: needed[] is meaningful */
    _Atomic int binary;            /* sem: initialised to 1 and never posted by a
                                    * thread that did not take it: a lock while down */
    _Atomic uint32_t wakers[4];    /* serials of the first threads that woke it (wait.c) */
    _Atomic uint32_t wake_seq;     /* changes at every wake-up: was a waiter woken since? */
    struct uld_barrier *barrier;   /* barriers: the participants' needs (wait.c) */
    struct uld_end_needs *end;     /* a thread's end: its needs not in the graph yet (wait.c) */
    int nneeded;
    struct uld_needed {             /* locks held at every wake-up so far */
        struct uld_lock *lock;      /* valid while lock->id == id */
        uint32_t id;
        uint8_t subclass, mode;
        uintptr_t ip;               /* where the waker had acquired it */
    } needed[ULD_MAX_NEEDED];
};

struct uld_lock {
    _Atomic uintptr_t addr; /* 0 while on the free list */
    uint32_t id;            /* == node.id */
    uint32_t ordinal;       /* n-th instance of its class */
    uint8_t type, flags;    /* enum uld_lock_type, ULD_LF_* */
    uint8_t site_kind;      /* enum uld_site_kind */
    uint8_t is_static;      /* lives in a loaded object's data: named by its symbol;
                             * ULD_STATIC_UNKNOWN until a report needs it (lockmap.c) */
    uint8_t tagged : 1;     /* its identity was written into the object (see locktype.h) */
    uint8_t misused : 2;    /* ULD_MISUSED_*: a reported misuse may have left the
                             * object's own state (owner, readers) corrupt */
    uint8_t from_pending : 1; /* made from a pending tag (lazy.c): that lifetime's */
    _Atomic uint8_t fresh;  /* ULD_FRESH_*: written by other threads, hence not in the union */
    uint16_t birth_depth;   /* fresh locks: the initialiser's held depth at init */
    uintptr_t site_ip;      /* init or first-use site */
    struct uld_class *cls;
    char *name;             /* uld_lock_set_name(), else NULL */
    struct uld_node node;
    struct uld_subnode **sub; /* [ULD_NUM_SUBCLASSES] once a nesting subclass is used; [0] unused */
    struct uld_waitobj *wait; /* condition variables and semaphores */
    union {
        struct uld_lock *next_free; /* on the free list */
        struct {                    /* live: a fresh lock's birth (core.c) */
            uint32_t fresh_owner;   /* serial of the thread that initialised it */
            uint32_t birth_key;     /* low half of its held chain key at init */
        };
        struct {                    /* buried: its tombstone (tomb.c) */
            uint32_t dead_id;       /* its id when destroyed (its tag) */
            uint8_t dead_tagged;    /* its object carries that tag */
            uint8_t dead_reported;  /* a use after the destroy was reported */
        };
    };
    uintptr_t destroy_ip;   /* buried: the program's call of destroy, 0 unknown */
};

/* A semaphore taken as a lock (waits.c): initialised to 1, and no thread
 * that did not take its token has posted it.  Otherwise a signal, and a
 * token a thread took before that is stale, not a lock it holds. */
static inline int uld_sem_is_lock(const struct uld_lock *l)
{
    return l && l->type == ULD_TYPE_SEM && l->wait && atomic_load(&l->wait->binary);
}

#define ULD_STATIC_UNKNOWN 2 /* uld_lock.is_static not looked up yet */

/* uld_lock.fresh: a lock fresh from its init call (see core.c) */
enum { ULD_FRESH_NONE, ULD_FRESH_YES, ULD_FRESH_CLAIMED, ULD_FRESH_DEAD };

#define ULD_MISUSED_UNLOCK 1 /* unlock of a lock not held */
#define ULD_MISUSED_REINIT 2 /* re-initialised under another holder, whose unlock
                              * will corrupt the new lock: the taint carries over */

#define ULD_TAG_MAGIC 0x554c440000000000ull /* "ULD" in the top bytes */
static inline uint64_t uld_lock_tag(const struct uld_lock *l)
{
    return ULD_TAG_MAGIC | l->id;
}

/* A lock initialised without a record yet (lazy.c): "UP", its class index,
 * its ordinal. */
#define ULD_PENDING_MAGIC 0x5550000000000000ull
static inline int uld_tag_is_pending(uint64_t tag)
{
    return tag >> 48 == ULD_PENDING_MAGIC >> 48;
}

/* A lock destroyed before it had a record: "UD" and the destroy's call
 * site, so a later use still says where (tomb.c). */
#define ULD_DEAD_MAGIC 0x5544000000000000ull
#define ULD_DEAD_IP_MASK 0x0000ffffffffffffull
static inline uint64_t uld_tag_dead(uintptr_t destroy_ip)
{
    return ULD_DEAD_MAGIC | ((uint64_t)destroy_ip & ULD_DEAD_IP_MASK);
}
static inline uintptr_t uld_tag_dead_ip(uint64_t tag)
{
    return tag >> 48 == ULD_DEAD_MAGIC >> 48 ? (uintptr_t)(tag & ULD_DEAD_IP_MASK) : 0;
}

/* lockmap.c: address -> instance.  Lookups are lock-free; the rest needs graph_lock. */
int uld_lockmap_init(void) ULD_HIDDEN;
struct uld_lock *uld_lock_lookup(uintptr_t addr) ULD_HIDDEN;
/* graph_lock held: the record at addr, given what a lock-free lookup found
 * before (usually still it: then no probe). */
struct uld_lock *uld_lock_recheck(struct uld_lock *found, uintptr_t addr) ULD_HIDDEN;
struct uld_lock *uld_lock_create(uintptr_t addr, struct uld_lockdesc d, int site_kind,
                                 uintptr_t ip, const void *class_key) ULD_HIDDEN;
/* The record of a lock initialised earlier at cls's site, as the ordinal-th (lazy.c). */
struct uld_lock *uld_lock_create_initialised(uintptr_t addr, struct uld_lockdesc d,
                                             struct uld_class *cls, uint32_t ordinal) ULD_HIDDEN;
void uld_lock_forget(struct uld_lock *l) ULD_HIDDEN; /* retire + release_record */
/*
 * Tombstones (tomb.c) live in the address table: a destroyed lock's retired
 * record stays in the slot it had, marked dead (lookups skip it), so that
 * burying it and ending it (a new record at its address takes the slot
 * over) are one slot write each.  graph_lock held.
 */
int uld_lock_bury(struct uld_lock *l) ULD_HIDDEN; /* retire, keep as addr's tombstone; 0: none kept */
struct uld_lock *uld_lockmap_dead(uintptr_t addr) ULD_HIDDEN; /* the record buried at addr */
void uld_lockmap_dead_end(uintptr_t addr) ULD_HIDDEN; /* the tombstone ends: record released */
void uld_lock_retire(struct uld_lock *l) ULD_HIDDEN;         /* lifetime over, record kept */
void uld_lock_release_record(struct uld_lock *l) ULD_HIDDEN; /* back to the free list */
void uld_lockmap_mark(uintptr_t addr) ULD_HIDDEN;   /* free() must look at addr's granule */
void uld_lockmap_unmark(uintptr_t addr) ULD_HIDDEN; /* ... unless nothing is left there */
struct uld_node *uld_lock_node(struct uld_lock *l, unsigned subclass) ULD_HIDDEN;
/* Does the lock live in a loaded object's data?  graph_lock held. */
int uld_lock_is_static(struct uld_lock *l) ULD_HIDDEN;
struct uld_class *uld_lock_class(struct uld_lock *l, unsigned subclass) ULD_HIDDEN;
/* Calls fn for every tracked lock whose address lies in [p, p+n). */
void uld_lockmap_for_range(uintptr_t p, size_t n, void (*fn)(struct uld_lock *, void *),
                           void *arg) ULD_HIDDEN;
int uld_lockmap_range_marked(uintptr_t p, size_t n) ULD_HIDDEN;
/* The granule bitmap (lockmap.c): one bit per possible lock start, two levels. */
#define ULD_GRANULE_SHIFT 2                          /* locks start 4-byte aligned */
#define ULD_LEAF_SHIFT 30 /* one leaf per GiB: two bitmaps of 32 MiB (sparse), see below */
#define ULD_TOP_ENTRIES (1u << (47 - ULD_LEAF_SHIFT)) /* user space on x86_64 */
extern _Atomic uint64_t *_Atomic uld_granule_top[ULD_TOP_ENTRIES] ULD_HIDDEN;

/* The leaf bitmap that covers addr (NULL: none yet), and addr's bit in it. */
static inline _Atomic uint64_t *uld_granule_leaf(uintptr_t addr)
{
    uintptr_t top = addr >> ULD_LEAF_SHIFT;
    if (__builtin_expect(top >= ULD_TOP_ENTRIES, 0))
        return NULL;
    return atomic_load_explicit(&uld_granule_top[top], memory_order_acquire);
}

static inline size_t uld_granule_bit(uintptr_t addr)
{
    return (addr & ((1ull << ULD_LEAF_SHIFT) - 1)) >> ULD_GRANULE_SHIFT;
}

/* Bit `bit` of the leaf's bitmap that starts at word `words` (0: the
 * granule bits; ULD_LEAF_WORDS: the tombstone bits, below). */
static inline int uld_leaf_test(_Atomic uint64_t *leaf, size_t words, size_t bit)
{
    return (atomic_load_explicit(&leaf[words + bit / 64], memory_order_relaxed) >> (bit % 64)) &
           1;
}

/* addr's own bit: a lock or tombstone there.  Inline: every lazy init and
 * destroy asks (lazy.c), in a few loads. */
static inline int uld_lockmap_marked(uintptr_t addr)
{
    _Atomic uint64_t *leaf = uld_granule_leaf(addr);
    return leaf && uld_leaf_test(leaf, 0, uld_granule_bit(addr));
}

/*
 * A leaf is two bitmaps: the first marks a record or a tombstone at a
 * lock start (what free() asks), the second, ULD_LEAF_WORDS further, a
 * tombstone (lockmap.c sets and clears it with the dead slot).  A record and
 * a tombstone never share an address (a record ends the tombstone), so
 * "marked and no tombstone" is "a record may live here": an init over an
 * older lifetime's tombstone has no re-initialisation to check and stays
 * on the inline path.  Exact under graph_lock, which all writers hold.
 */
#define ULD_LEAF_WORDS ((size_t)1 << (ULD_LEAF_SHIFT - ULD_GRANULE_SHIFT - 6))
static inline int uld_lockmap_may_have_record(uintptr_t addr)
{
    _Atomic uint64_t *leaf = uld_granule_leaf(addr);
    if (!leaf)
        return 0;
    size_t bit = uld_granule_bit(addr);
    if (!uld_leaf_test(leaf, 0, bit))
        return 0;
    /* keeps the compiler from preparing this load before the test above,
     * on every lock's init (most find no bit) */
    __asm__ volatile("" : "+r"(leaf), "+r"(bit));
    return !uld_leaf_test(leaf, ULD_LEAF_WORDS, bit);
}

/* Is a tombstone at addr (tomb.c's table has it)? */
static inline int uld_lockmap_tomb_marked(uintptr_t addr)
{
    _Atomic uint64_t *leaf = uld_granule_leaf(addr);
    return leaf && uld_leaf_test(leaf, ULD_LEAF_WORDS, uld_granule_bit(addr));
}
long uld_lockmap_live(void) ULD_HIDDEN;
long uld_lockmap_created(void) ULD_HIDDEN;
long uld_lockmap_buried(void) ULD_HIDDEN; /* tombstones kept */
/* Lifetimes ended so far: a list of "valid while id matches" references
 * that had no stale entry has none while this has not moved. */
extern _Atomic uint64_t uld_lock_retirements ULD_HIDDEN;
uint32_t uld_next_node_id(void) ULD_HIDDEN;

static inline int uld_is_wait_type(int type)
{
    return type == ULD_TYPE_COND || type == ULD_TYPE_SEM || type == ULD_TYPE_THREAD ||
           type == ULD_TYPE_BARRIER;
}

/* Would a wait/wake by thread `serial` change w's waiter/waker?  Such a call
 * must reach the checks (not the chain cache) once.  Lock-free read. */
static inline int uld_waitobj_new_thread(const struct uld_lock *w, uint32_t serial, int wake)
{
    if (!w->wait)
        return 1;
    uint32_t who = atomic_load_explicit(wake ? &w->wait->waker : &w->wait->waiter,
                                        memory_order_relaxed);
    return who != serial && who != ULD_MANY_THREADS;
}

/* class.c */
struct uld_class *uld_class_get(uintptr_t key, unsigned subclass, int kind,
                                uint8_t type, const char *name) ULD_HIDDEN;
long uld_class_count(void) ULD_HIDDEN;
/* The class of locks initialised at call site ip, if cached (see class.c);
 * lock-free.  Remembering needs graph_lock. */
struct uld_class *uld_class_of_init_site(uintptr_t ip) ULD_HIDDEN;
void uld_class_remember_init_site(uintptr_t ip, struct uld_class *c) ULD_HIDDEN;
/* Changes whenever cached init sites are dropped (lazy.c keeps per-thread copies). */
extern _Atomic uint32_t uld_init_sites_gen ULD_HIDDEN;
/* A class by its index, NULL if there is none; lock-free. */
struct uld_class *uld_class_by_index(uint32_t index) ULD_HIDDEN;
/* Every class, for dumps (graph_lock held). */
void uld_class_for_each(void (*fn)(struct uld_class *, void *), void *arg) ULD_HIDDEN;
int uld_addr_is_static(uintptr_t addr) ULD_HIDDEN;
/* wrappers.c: is this return address inside a lock wrapper function?  graph_lock held. */
int uld_in_wrapper(uintptr_t addr) ULD_HIDDEN;
int uld_module_has_wrappers(uintptr_t addr) ULD_HIDDEN;

extern struct uld_graph uld_lock_graph ULD_HIDDEN;
extern struct uld_graph uld_class_graph ULD_HIDDEN;

#endif
