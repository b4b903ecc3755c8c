/*
 * lockmap.c - lock instances by address.
 *
 * The address table is read without locks on every acquisition: open
 * addressing, entries published with release stores, and a reader always
 * confirms that the record it found still describes its address.  Writers
 * (create, forget, resize) hold graph_lock.  Retired tables and lock records
 * are never unmapped, only reused, so a late reader reads stale memory,
 * never unmapped memory.
 *
 * A destroyed lock's tombstone (tomb.c) is its retired record left in the
 * slot it had, the slot's address marked DEAD: lookups, which compare the
 * address, pass it like any other key; the tombstone is ended by the next
 * record at that address taking the slot over, or by marking it DELETED.
 *
 * A two-level bitmap marks every tracked lock's start address (one bit per
 * 4 bytes), so free() can tell in a load or two whether the block it
 * releases contains locks, and forgetting a lock clears its own bit.
 */
#include "base/config.h"
#include "base/tablefull.h"
#include "lock.h"
#include "state.h"
#include "stack.h"
#include "stackmemo.h"
#include "symranges.h"
#include "tomb.h"

#define DELETED ((uintptr_t)1)      /* a removed entry: probes go on past it */
#define DEAD (1ull << 63)            /* above every user address: a buried lock's slot */
#define MAP_MIN_SLOTS (1u << 14)
#define LEAF_BITS (1u << (ULD_LEAF_SHIFT - ULD_GRANULE_SHIFT))

struct map_slot {
    _Atomic uintptr_t addr;
    struct uld_lock *_Atomic lock;
};

struct map_table {
    size_t nslots;
    size_t used;  /* live + dead + deleted */
    struct map_table *next_retired;
    struct map_slot slots[];
};

static struct map_table *_Atomic table;
static struct map_table *retired;
static long live_locks, created_locks, buried_locks;
_Atomic uint64_t uld_lock_retirements;
static struct uld_lock *free_records;
/* lock.h reads it inline; static, so that a reader needs no pointer to it first */
_Atomic uint64_t *_Atomic uld_granule_top[ULD_TOP_ENTRIES];
static _Atomic uint32_t next_id = 1;

uint32_t uld_next_node_id(void)
{
    uint32_t id = atomic_fetch_add(&next_id, 1);
    return id ? id : atomic_fetch_add(&next_id, 1);
}

long uld_lockmap_live(void)
{
    return live_locks;
}

long uld_lockmap_created(void)
{
    return created_locks;
}

long uld_lockmap_buried(void)
{
    return buried_locks;
}

static size_t hash_addr(uintptr_t a)
{
    uint64_t x = (uint64_t)a * 0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 20);
}

static struct map_table *table_new(size_t nslots)
{
    struct map_table *t;
    for (struct map_table **pp = &retired; (t = *pp); pp = &t->next_retired) {
        if (t->nslots == nslots) {
            *pp = t->next_retired;
            memset(t->slots, 0, nslots * sizeof(t->slots[0]));
            t->used = 0;
            t->next_retired = NULL;
            return t;
        }
    }
    t = uld_map(sizeof(*t) + nslots * sizeof(t->slots[0]));
    if (t)
        t->nslots = nslots;
    return t;
}

int uld_lockmap_init(void)
{
    atomic_store(&table, table_new(MAP_MIN_SLOTS));
    return atomic_load(&table) != NULL;
}

struct uld_lock *uld_lock_lookup(uintptr_t addr)
{
    struct map_table *t = atomic_load_explicit(&table, memory_order_acquire);
    if (unlikely(!t))
        return NULL;
    size_t mask = t->nslots - 1;
    for (size_t i = hash_addr(addr) & mask;; i = (i + 1) & mask) {
        uintptr_t a = atomic_load_explicit(&t->slots[i].addr, memory_order_acquire);
        if (a == addr) {
            struct uld_lock *l = atomic_load_explicit(&t->slots[i].lock, memory_order_acquire);
            if (l && atomic_load_explicit(&l->addr, memory_order_acquire) == addr)
                return l;
            return NULL;
        }
        if (a == 0)
            return NULL;
    }
}

/*
 * Under graph_lock a record is in the table exactly while its addr says so
 * (record_make sets it before the insert, retire clears it after the
 * remove), and every record has its granule bit and no tombstone bit
 * (lock.h): either answers without a probe.
 */
struct uld_lock *uld_lock_recheck(struct uld_lock *found, uintptr_t addr)
{
    if (found && atomic_load_explicit(&found->addr, memory_order_relaxed) == addr)
        return found;
    return uld_lockmap_may_have_record(addr) ? uld_lock_lookup(addr) : NULL;
}

/* key: the address, or the address | DEAD of a buried lock (hashed as its address) */
static void table_put(struct map_table *t, uintptr_t key, struct uld_lock *l)
{
    size_t mask = t->nslots - 1;
    for (size_t i = hash_addr(key & ~DEAD) & mask;; i = (i + 1) & mask) {
        uintptr_t a = atomic_load_explicit(&t->slots[i].addr, memory_order_relaxed);
        if (a == 0 || a == DELETED) {
            atomic_store_explicit(&t->slots[i].lock, l, memory_order_release);
            atomic_store_explicit(&t->slots[i].addr, key, memory_order_release);
            if (a == 0)
                t->used++;
            return;
        }
    }
}

/* Grow (or just drop deleted entries) so that at most half the slots are used. */
static int table_make_room(void)
{
    struct map_table *t = atomic_load(&table);
    if ((t->used + 1) * 2 <= t->nslots)
        return 1;
    size_t n = MAP_MIN_SLOTS;
    while (n < (size_t)(live_locks + buried_locks + 1) * 4)
        n *= 2;
    struct map_table *nt = table_new(n);
    if (!nt)
        return 0;
    for (size_t i = 0; i < t->nslots; i++) {
        uintptr_t a = atomic_load(&t->slots[i].addr);
        if (a != 0 && a != DELETED) /* live and buried locks */
            table_put(nt, a, atomic_load(&t->slots[i].lock));
    }
    atomic_store_explicit(&table, nt, memory_order_release);
    t->next_retired = retired;
    retired = t;
    return 1;
}

/* The slot whose key is key (an address, or address | DEAD), NULL if none. */
static struct map_slot *table_slot(uintptr_t key)
{
    struct map_table *t = atomic_load(&table);
    size_t mask = t->nslots - 1;
    for (size_t i = hash_addr(key & ~DEAD) & mask;; i = (i + 1) & mask) {
        uintptr_t a = atomic_load_explicit(&t->slots[i].addr, memory_order_relaxed);
        if (a == key)
            return &t->slots[i];
        if (a == 0)
            return NULL;
    }
}

static void table_remove(uintptr_t addr)
{
    struct map_slot *s = table_slot(addr);
    if (s)
        atomic_store_explicit(&s->addr, DELETED, memory_order_release);
}

/* ---- granule bitmap ------------------------------------------------- */

static _Atomic uint64_t *leaf_of(uintptr_t addr, int create)
{
    _Atomic uint64_t *leaf = uld_granule_leaf(addr);
    size_t top = (size_t)(addr >> ULD_LEAF_SHIFT);
    if (!leaf && create && top < ULD_TOP_ENTRIES) {
        leaf = uld_map(2 * (LEAF_BITS / 8)); /* and the tombstone bitmap (lock.h) */
        atomic_store_explicit(&uld_granule_top[top], leaf, memory_order_release);
    }
    return leaf;
}

/* Set or clear addr's bit in the leaf's bitmap at word `words` (lock.h);
 * 0 if addr has no leaf (none could be mapped, or clearing an absent one). */
static int leaf_set(uintptr_t addr, size_t words, int on)
{
    _Atomic uint64_t *leaf = leaf_of(addr, on);
    if (!leaf)
        return 0;
    size_t bit = uld_granule_bit(addr);
    if (on)
        atomic_fetch_or(&leaf[words + bit / 64], 1ull << (bit % 64));
    else
        atomic_fetch_and(&leaf[words + bit / 64], ~(1ull << (bit % 64)));
    return 1;
}

/* One bit per possible lock start: a lock's own bit, nobody else's. */
static void granule_set(uintptr_t addr, int on)
{
    leaf_set(addr, 0, on);
}

/*
 * Calls fn(addr, arg) for each marked lock start in [p, p+n), a word of the
 * bitmap at a time; fn returning nonzero stops the walk.  Returns that value.
 */
static int granule_walk(uintptr_t p, size_t n, int (*fn)(uintptr_t, void *), void *arg)
{
    uintptr_t end = p + n;
    for (uintptr_t g = p & ~(uintptr_t)((1u << ULD_GRANULE_SHIFT) - 1); g < end;) {
        uintptr_t leaf_end = (g | ((1ull << ULD_LEAF_SHIFT) - 1)) + 1;
        _Atomic uint64_t *leaf = leaf_of(g, 0);
        uintptr_t stop = end < leaf_end ? end : leaf_end;
        for (; leaf && g < stop; g = (g | ((64ull << ULD_GRANULE_SHIFT) - 1)) + 1) {
            size_t bit = uld_granule_bit(g);
            uint64_t w = atomic_load_explicit(&leaf[bit / 64], memory_order_relaxed);
            w &= ~0ull << (bit % 64);
            while (w) {
                uintptr_t a = (g & ~(uintptr_t)((64ull << ULD_GRANULE_SHIFT) - 1)) +
                              ((uintptr_t)__builtin_ctzll(w) << ULD_GRANULE_SHIFT);
                w &= w - 1;
                int r;
                if (a >= end)
                    break;
                if (a >= p && (r = fn(a, arg)))
                    return r;
            }
        }
        g = leaf_end; /* nothing (more) in this GiB */
    }
    return 0;
}

static int stop_at_first(uintptr_t a, void *arg)
{
    (void)a;
    (void)arg;
    return 1;
}

int uld_lockmap_range_marked(uintptr_t p, size_t n)
{
    return n ? granule_walk(p, n, stop_at_first, NULL) : 0;
}

struct range_call {
    void (*fn)(struct uld_lock *, void *);
    void *arg;
};

/*
 * fn ends each live lock in the range; tombstones (tomb.c) there end too,
 * and their bits are cleared, so free() of that memory is cheap again.
 */
static int end_at(uintptr_t a, void *arg)
{
    struct range_call *c = arg;
    struct uld_lock *l = uld_lock_lookup(a);
    if (l)
        c->fn(l, c->arg);
    uld_tomb_end(a);
    granule_set(a, 0);
    return 0;
}

void uld_lockmap_for_range(uintptr_t p, size_t n, void (*fn)(struct uld_lock *, void *),
                           void *arg)
{
    struct range_call c = {fn, arg};
    granule_walk(p, n, end_at, &c);
}

void uld_lockmap_mark(uintptr_t addr)
{
    granule_set(addr, 1);
}

void uld_lockmap_unmark(uintptr_t addr)
{
    if (!uld_lock_lookup(addr))
        granule_set(addr, 0);
}

/* ---- instances ------------------------------------------------------- */

static struct uld_lock *record_alloc(void)
{
    struct uld_lock *l = free_records;
    if (l) {
        free_records = l->next_free;
        memset((char *)l + sizeof(l->addr), 0, sizeof(*l) - sizeof(l->addr));
        return l;
    }
    return uld_alloc(sizeof(*l));
}

/* How far above the interposed call a lock wrapper may sit with helpers of
 * its own below it (GDAL: CPLCreateMutex -> a static helper -> init). */
#define WRAPPER_REACH 3

/* The first frame from i on that is outside the chain of lock wrappers
 * (wrappers.c).  Frames below a wrapper frame were called by it: a static
 * helper that has no symbol to match belongs to the chain too. */
static int skip_wrappers(const uintptr_t *f, int n, int i)
{
    for (int k = i + WRAPPER_REACH - 1; k > i; k--) {
        if (k + 1 < n && uld_in_wrapper(f[k])) {
            i = k;
            break;
        }
    }
    while (i + 1 < n && uld_in_wrapper(f[i]))
        i++;
    return i;
}

/*
 * A lock never initialised is classed by where it is first acquired: that
 * call site (outside lock wrappers) and its caller's call site, since the
 * lock call often sits in a helper shared by many locks.  Keys of this kind
 * have the top bit set and never collide with an address.
 */
static uintptr_t first_use_key(uintptr_t ip, uint32_t *site_stack)
{
    const uintptr_t *f;
    int n = uld_stack_frames(uld_stack_capture_limited(0, 8), &f);
    int i = skip_wrappers(f, n, 0);
    *site_stack = uld_stack_intern(f + i, n - i < 4 ? n - i : 4);
    if (n - i < 2)
        return n ? f[i] : ip;
    return (uintptr_t)(f[i] * 0x9e3779b97f4a7c15ull ^ f[i + 1] * 0xc2b2ae3d27d4eb4full) |
           ULD_KEY_CHAIN;
}

/*
 * How many frames an init site in code without names may take into its
 * class: unbound's bin locks are initialised in bin_init <- lruhash_create
 * <- slabhash_create <- the cache's constructor, the first frame that tells
 * the caches apart (docs/design.md, "Init sites in code without names").
 */
#define UNNAMED_REACH 4

/*
 * The number of frames from f[i] on that make the class of a lock
 * initialised at f[i]: 1 (the site alone) when its module names the
 * function there; else the site and its callers, up to and including the
 * first frame with a name or in another module (the helper chain's caller,
 * the object's purpose: GDAL's CPLCreateMutex tail-calls its helpers, so
 * its callers, in libgdal or a program, come right after them), at most
 * UNNAMED_REACH.
 */
static int unnamed_chain(const uintptr_t *f, int n, int i, uintptr_t *site)
{
    *site = f[i];
    if (!uld_addr_unnamed(f[i]))
        return 1;
    int k = 1;
    while (k < UNNAMED_REACH && i + k < n) {
        uintptr_t caller = f[i + k++];
        if (!uld_same_module(f[i], caller))
            break; /* named by the outermost frame of its own module */
        *site = caller;
        if (!uld_addr_unnamed(caller))
            break;
    }
    return k;
}

static uintptr_t chain_key(const uintptr_t *f, int k)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int j = 0; j < k; j++)
        h = (h ^ f[j]) * 0xc2b2ae3d27d4eb4full;
    return (uintptr_t)(h ^ h >> 29) | ULD_KEY_CHAIN;
}

/*
 * A lock initialised by pthread_*_init is classed, as in the kernel, by its
 * init call site in the source: the first frame above the interposed call
 * that is not inside a lock wrapper (nni_mtx_init, sqlite3_mutex_alloc, a
 * Mutex constructor; wrappers.c).  Nothing above that frame counts, so a
 * lazy-init function called from many places makes one class, and seven
 * fields initialised through one wrapper in one constructor make seven.
 * In code its module does not name, where no wrapper can be recognised,
 * the calls that reached the site count too (unnamed_chain).  Returns the
 * class key; site gets the frame that names the class (the site, or the
 * chain's outermost frame in its module) and site_stack the frames behind
 * the key (for names: the site and its caller).
 */
static uintptr_t init_site(uintptr_t ip, uint32_t *site_stack, uintptr_t *site)
{
    const uintptr_t *f;
    int n = uld_stack_frames(uld_stack_capture_prefix(ip, 8), &f);
    n = n < 8 ? n : 8;
    *site = ip;
    for (int i = 0; i < n; i++) {
        if (f[i] == ip) {
            i = skip_wrappers(f, n, i);
            int k = unnamed_chain(f, n, i, site);
            if (k > 1) {
                *site_stack = uld_stack_intern(f + i, k);
                return chain_key(f + i, k);
            }
            *site_stack = uld_stack_intern(f + i, n - i < 2 ? n - i : 2);
            return f[i];
        }
    }
    return ip;
}

/* The class for a lock created at ip (updated to the init site for ULD_SITE_INIT). */
static struct uld_class *class_of_site(int *site_kind, uintptr_t *ip, uintptr_t addr,
                                       struct uld_lockdesc d, const void *class_key)
{
    uintptr_t key = *site_kind == ULD_SITE_STATIC       ? addr
                    : *site_kind == ULD_SITE_ANNOTATION ? (uintptr_t)class_key
                                                        : *ip;
    uintptr_t site = *ip;
    uint32_t site_stack = 0;
    if (*site_kind == ULD_SITE_FIRST_USE)
        key = first_use_key(*ip, &site_stack);
    else if (*site_kind == ULD_SITE_INIT)
        key = init_site(*ip, &site_stack, &site);
    struct uld_class *cls = uld_class_get(key, 0, *site_kind, d.type, NULL);
    if (cls && !cls->site_stack)
        cls->site_stack = site_stack;
    /* a site outside every wrapper is its own key, whatever the stack above it,
     * unless a wrapper of its module may call it (skip_wrappers' reach) or
     * its module does not name it (the callers count: unnamed_chain) */
    if (cls && cls->site_stack && *site_kind == ULD_SITE_INIT && key == *ip &&
        !uld_in_wrapper(*ip) && !uld_module_has_wrappers(*ip) && !uld_addr_unnamed(*ip))
        uld_class_remember_init_site(*ip, cls);
    if (*site_kind == ULD_SITE_INIT)
        *ip = site;
    return cls;
}

int uld_lock_is_static(struct uld_lock *l)
{
    if (l->is_static == ULD_STATIC_UNKNOWN)
        l->is_static = (uint8_t)uld_addr_is_static(atomic_load(&l->addr));
    return l->is_static;
}

static int room_for_one(void)
{
    if (live_locks >= uld_config.max_locks) {
        uld_table_full("lock", uld_config.max_locks, "max_locks");
        return 0;
    }
    return table_make_room();
}

/* The tombstone at the leaf's bit is gone from the table: its record and
 * tombstone bit go too (the granule bit is the caller's). */
static void unbury(struct uld_lock *old, _Atomic uint64_t *leaf, size_t bit)
{
    buried_locks--;
    atomic_fetch_and(&leaf[ULD_LEAF_WORDS + bit / 64], ~(1ull << (bit % 64)));
    uld_lock_release_record(old);
}

/* A record in class cls; ordinal 0: the class's next. */
static struct uld_lock *record_make(uintptr_t addr, struct uld_lockdesc d, int site_kind,
                                    int is_static, uintptr_t ip, struct uld_class *cls,
                                    uint32_t ordinal)
{
    /* no record without its granule bit: lock-free readers trust the bits */
    _Atomic uint64_t *leaf = leaf_of(addr, 1);
    struct uld_lock *l = cls && leaf ? record_alloc() : NULL;
    if (!l)
        return NULL;
    l->id = uld_next_node_id();
    l->type = d.type;
    l->flags = d.flags;
    l->site_kind = (uint8_t)site_kind;
    l->is_static = (uint8_t)is_static;
    l->site_ip = ip;
    l->cls = cls;
    l->ordinal = ordinal ? ordinal : __atomic_add_fetch(&cls->ninstances, 1, __ATOMIC_RELAXED);
    if (++cls->nlive > cls->max_live) /* one object or many, for merged graphs */
        cls->max_live = cls->nlive;
    if (uld_is_wait_type(d.type) && !(l->wait = uld_alloc(sizeof(*l->wait)))) {
        l->next_free = free_records;
        free_records = l;
        return NULL;
    }
    uld_node_init(&l->node, l->id, 0, l);
    atomic_store_explicit(&l->addr, addr, memory_order_release);
    /* a new lifetime here: the destroyed one is history, and its slot (and
     * granule bit) this one's */
    size_t bit = uld_granule_bit(addr);
    struct map_slot *dead =
        uld_leaf_test(leaf, ULD_LEAF_WORDS, bit) ? table_slot(addr | DEAD) : NULL;
    if (dead) {
        struct uld_lock *old = atomic_load_explicit(&dead->lock, memory_order_relaxed);
        atomic_store_explicit(&dead->lock, l, memory_order_release);
        atomic_store_explicit(&dead->addr, addr, memory_order_release);
        unbury(old, leaf, bit);
    } else {
        table_put(atomic_load(&table), addr, l);
        atomic_fetch_or(&leaf[bit / 64], 1ull << (bit % 64));
    }
    live_locks++;
    created_locks++;
    return l;
}

struct uld_lock *uld_lock_create(uintptr_t addr, struct uld_lockdesc d, int site_kind,
                                 uintptr_t ip, const void *class_key)
{
    if (!room_for_one())
        return NULL;
    /* an initialised lock's class does not depend on it; names look it up later */
    int is_static = site_kind == ULD_SITE_INIT ? ULD_STATIC_UNKNOWN : uld_addr_is_static(addr);
    if (site_kind == ULD_SITE_FIRST_USE && is_static)
        site_kind = ULD_SITE_STATIC; /* a static lock never initialised: its own class */
    struct uld_class *cls = site_kind == ULD_SITE_INIT ? uld_class_of_init_site(ip) : NULL;
    if (!cls)
        cls = class_of_site(&site_kind, &ip, addr, d, class_key);
    return record_make(addr, d, site_kind, is_static, ip, cls, 0);
}

struct uld_lock *uld_lock_create_initialised(uintptr_t addr, struct uld_lockdesc d,
                                             struct uld_class *cls, uint32_t ordinal)
{
    if (!room_for_one())
        return NULL;
    return record_make(addr, d, ULD_SITE_INIT, ULD_STATIC_UNKNOWN, cls->k.key, cls, ordinal);
}

struct uld_lock *uld_lock_first_use(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    struct uld_lock *l = uld_lock_create(addr, d, ULD_SITE_FIRST_USE, ip, NULL);
    if (!l)
        atomic_store(&uld_untracked_locks, 1);
    return l;
}

struct uld_node *uld_lock_node(struct uld_lock *l, unsigned subclass)
{
    if (subclass == 0)
        return &l->node;
    if (subclass >= ULD_NUM_SUBCLASSES)
        subclass = ULD_NUM_SUBCLASSES - 1;
    if (!l->sub && !(l->sub = uld_alloc(ULD_NUM_SUBCLASSES * sizeof(*l->sub))))
        return &l->node;
    if (!l->sub[subclass]) {
        struct uld_subnode *s = uld_alloc(sizeof(*s));
        if (!s)
            return &l->node;
        uld_node_init(&s->node, uld_next_node_id(), (uint8_t)subclass, l);
        l->sub[subclass] = s;
    }
    return &l->sub[subclass]->node;
}

struct uld_class *uld_lock_class(struct uld_lock *l, unsigned subclass)
{
    if (subclass == 0)
        return l->cls;
    struct uld_node *n = uld_lock_node(l, subclass);
    struct uld_subnode *s = n == &l->node ? NULL : (struct uld_subnode *)n;
    if (!s)
        return l->cls;
    if (!s->cls)
        s->cls = uld_class_get(l->cls->k.key, subclass, (int)l->cls->k.kind,
                               l->type, NULL);
    return s->cls ? s->cls : l->cls;
}

/*
 * The lifetime of l ends: out of the address table and the graph.  The
 * record stays readable (name, class) until uld_lock_release_record(); its
 * id becomes 0, so every memo and reference "valid while lock->id == id"
 * (the fast path's among them) lets go of it at once.
 */
static void retire_node(struct uld_lock *l);

void uld_lock_retire(struct uld_lock *l)
{
    uintptr_t addr = atomic_load(&l->addr);
    table_remove(addr);
    if (!uld_tomb_at(addr)) /* a tombstone keeps the bit: free() must find it */
        granule_set(addr, 0);
    retire_node(l);
}

/*
 * The lifetime of l ends and its record stays in its slot as addr's
 * tombstone: the slot's key becomes addr | DEAD before the record's addr
 * and id are cleared (lock-free lookups stop finding it by either), and
 * the granule keeps its bit (free() must find the tombstone).
 */
int uld_lock_bury(struct uld_lock *l)
{
    uintptr_t addr = atomic_load(&l->addr);
    _Atomic uint64_t *leaf = uld_granule_leaf(addr); /* a record has one (record_make) */
    struct map_slot *s = leaf ? table_slot(addr) : NULL;
    if (!s)
        return 0;
    size_t bit = uld_granule_bit(addr);
    /* the granule bit stays (every record has it): free() must find the tombstone */
    atomic_fetch_or(&leaf[ULD_LEAF_WORDS + bit / 64], 1ull << (bit % 64));
    atomic_store_explicit(&s->addr, addr | DEAD, memory_order_release);
    uint32_t id = l->id;
    retire_node(l);
    l->dead_id = id;
    l->dead_tagged = 0;
    l->dead_reported = 0;
    buried_locks++;
    return 1;
}

struct uld_lock *uld_lockmap_dead(uintptr_t addr)
{
    struct map_slot *s = uld_lockmap_tomb_marked(addr) ? table_slot(addr | DEAD) : NULL;
    return s ? atomic_load_explicit(&s->lock, memory_order_relaxed) : NULL;
}

void uld_lockmap_dead_end(uintptr_t addr)
{
    struct map_slot *s = uld_lockmap_tomb_marked(addr) ? table_slot(addr | DEAD) : NULL;
    if (!s)
        return;
    struct uld_lock *old = atomic_load_explicit(&s->lock, memory_order_relaxed);
    atomic_store_explicit(&s->addr, DELETED, memory_order_release);
    unbury(old, uld_granule_leaf(addr), uld_granule_bit(addr));
}

/* What ends with a lifetime, wherever its record goes (graph_lock held). */
static void retire_node(struct uld_lock *l)
{
    uld_graph_remove_node(&uld_lock_graph, &l->node);
    for (int i = 1; l->sub && i < ULD_NUM_SUBCLASSES; i++) {
        if (l->sub[i]) {
            uld_graph_remove_node(&uld_lock_graph, &l->sub[i]->node);
            uld_free(l->sub[i], sizeof(*l->sub[i]));
        }
    }
    if (l->sub)
        uld_free(l->sub, ULD_NUM_SUBCLASSES * sizeof(*l->sub));
    l->sub = NULL;
    if (l->wait)
        uld_free(l->wait, sizeof(*l->wait));
    l->wait = NULL;
    if (l->cls && l->cls->nlive)
        l->cls->nlive--;
    atomic_store_explicit(&l->addr, 0, memory_order_release);
    __atomic_store_n(&l->id, 0, __ATOMIC_RELEASE);
    atomic_store_explicit(&uld_lock_retirements,
                          atomic_load_explicit(&uld_lock_retirements, memory_order_relaxed) + 1,
                          memory_order_release); /* graph_lock held: no lost update */
    live_locks--;
}

void uld_lock_release_record(struct uld_lock *l)
{
    if (l->name)
        uld_free(l->name, strlen(l->name) + 1);
    l->name = NULL;
    l->next_free = free_records;
    free_records = l;
}

void uld_lock_forget(struct uld_lock *l)
{
    uld_lock_retire(l);
    uld_lock_release_record(l);
}
