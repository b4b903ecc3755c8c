/*
 * class.c - lock classes, keyed by (site or address or annotation key,
 * subclass, kind), and the test for "this lock is a static variable".
 * Classes live for the whole process; a module unload rekeys the classes
 * of its addresses (modules.c), and loading the same file again gives them
 * back.  Protected by graph_lock.
 */
#include "base/config.h"
#include "base/tablefull.h"
#include "lock.h"
#include "modules.h"
#include "stack.h"

#include <link.h>
#include <stddef.h>

static struct uld_class *classes;
static long nclasses;

long uld_class_count(void)
{
    return nclasses;
}

static void rekey(struct uld_class *c, uintptr_t key)
{
    HASH_DEL(classes, c);
    c->k.key = key;
    HASH_ADD(hh, classes, k, sizeof(c->k), c);
}

struct revival {
    struct uld_class_key k;
    struct uld_class *found;
};

static int find_earlier(uintptr_t old_key, void *arg)
{
    struct revival *r = arg;
    struct uld_class_key k = r->k;
    k.key = old_key;
    HASH_FIND(hh, classes, &k, sizeof(k), r->found);
    return r->found != NULL;
}

/*
 * A class keyed by an address of a module that was unloaded and is now
 * loaded again (the same file): the class it had then.  A static lock's
 * identity follows its symbol, so a library reloaded keeps its classes and
 * their edges (an order taken before the unload against the reverse after
 * it is still a cycle).
 */
static struct uld_class *revive(const struct uld_class_key *k)
{
    if (!uld_unloaded_count() || k->kind == ULD_SITE_FIRST_USE || uld_key_is_chain(k->key))
        return NULL;
    struct revival r = {*k, NULL};
    if (!uld_unloaded_earlier_keys(k->key, find_earlier, &r))
        return NULL;
    rekey(r.found, k->key);
    return r.found;
}

/* Classes by index, published with release stores: two levels that never move. */
#define INDEX_CHUNK 4096
#define INDEX_CHUNKS 4096 /* max_classes is at most 2^24 */
static struct uld_class **_Atomic by_index[INDEX_CHUNKS];
static _Atomic uint32_t published;

static void publish(struct uld_class *c)
{
    uint32_t chunk = c->index / INDEX_CHUNK;
    struct uld_class **slots = atomic_load_explicit(&by_index[chunk], memory_order_relaxed);
    if (!slots) {
        if (!(slots = uld_alloc(INDEX_CHUNK * sizeof(*slots))))
            return;
        memset(slots, 0, INDEX_CHUNK * sizeof(*slots));
        atomic_store_explicit(&by_index[chunk], slots, memory_order_release);
    }
    __atomic_store_n(&slots[c->index % INDEX_CHUNK], c, __ATOMIC_RELEASE);
}

struct uld_class *uld_class_by_index(uint32_t index)
{
    if (index >= atomic_load_explicit(&published, memory_order_acquire) ||
        index / INDEX_CHUNK >= INDEX_CHUNKS)
        return NULL;
    struct uld_class **slots =
        atomic_load_explicit(&by_index[index / INDEX_CHUNK], memory_order_acquire);
    return slots ? __atomic_load_n(&slots[index % INDEX_CHUNK], __ATOMIC_ACQUIRE) : NULL;
}

struct uld_class *uld_class_get(uintptr_t key, unsigned subclass, int kind,
                                uint8_t type, const char *name)
{
    struct uld_class_key k;
    struct uld_class *c;
    memset(&k, 0, sizeof(k));
    k.key = key;
    k.subclass = subclass;
    k.kind = (uint32_t)kind;
    HASH_FIND(hh, classes, &k, sizeof(k), c);
    if (!c)
        c = revive(&k);
    if (c) {
        if (name && !c->name)
            c->name = uld_strdup(name);
        return c;
    }
    if (nclasses >= uld_config.max_classes) {
        uld_table_full("lock-class", uld_config.max_classes, "max_classes");
        return NULL;
    }
    c = uld_alloc(sizeof(*c));
    if (!c)
        return NULL;
    c->k = k;
    c->type = type;
    c->name = name ? uld_strdup(name) : NULL;
    uld_node_init(&c->node, uld_next_node_id(), (uint8_t)subclass, c);
    c->base = subclass ? uld_class_get(key, 0, kind, type, name) : c;
    if (!c->base)
        c->base = c;
    c->index = (uint32_t)nclasses; /* after the base class (created above) took its own */
    HASH_ADD(hh, classes, k, sizeof(c->k), c);
    nclasses++;
    publish(c);
    atomic_store_explicit(&published, (uint32_t)nclasses, memory_order_release);
    return c;
}

/*
 * Init sites known to be their own class key (a call site outside every lock
 * wrapper), so that the next lock initialised there needs no stack capture:
 * the class and its site stack are those of the first.  A direct-mapped
 * cache of one word per slot (site << 17 | class index), read without
 * locks; a collision only costs the capture again.
 */
#define INIT_SITE_SLOTS 1024
#define SITE_INDEX_BITS 17
static _Atomic uint64_t init_sites[INIT_SITE_SLOTS];
_Atomic uint32_t uld_init_sites_gen; /* bumped when sites are cleared: per-thread copies go */

static size_t init_site_slot(uintptr_t ip)
{
    return (size_t)(((uint64_t)ip * 0x9e3779b97f4a7c15ull) >> 54) & (INIT_SITE_SLOTS - 1);
}

struct uld_class *uld_class_of_init_site(uintptr_t ip)
{
    uint64_t w = atomic_load_explicit(&init_sites[init_site_slot(ip)], memory_order_acquire);
    if (!w || w >> SITE_INDEX_BITS != ip)
        return NULL;
    return uld_class_by_index((uint32_t)(w & ((1u << SITE_INDEX_BITS) - 1)));
}

void uld_class_remember_init_site(uintptr_t ip, struct uld_class *c)
{
    if ((uint64_t)ip >> (64 - SITE_INDEX_BITS) || c->index >> SITE_INDEX_BITS ||
        uld_class_by_index(c->index) != c)
        return; /* does not fit a word (or was not published): no caching */
    atomic_store_explicit(&init_sites[init_site_slot(ip)],
                          (uint64_t)ip << SITE_INDEX_BITS | c->index, memory_order_release);
}

void uld_class_for_each(void (*fn)(struct uld_class *, void *), void *arg)
{
    struct uld_class *c, *tmp;
    HASH_ITER(hh, classes, c, tmp)
        fn(c, arg);
}

/* Does class c belong to [lo, hi): its key, or the site of a class keyed by frames? */
static int class_in_range(const struct uld_class *c, uintptr_t lo, uintptr_t hi)
{
    uintptr_t at = c->k.key;
    if (c->k.kind == ULD_SITE_FIRST_USE || uld_key_is_chain(c->k.key)) {
        const uintptr_t *f;
        at = uld_stack_frames(c->base->site_stack, &f) > 0 ? f[0] : 0;
    }
    return at >= lo && at < hi;
}

void uld_class_retire_range(uintptr_t lo, uintptr_t hi, unsigned index)
{
    for (int i = 0; i < INIT_SITE_SLOTS; i++) { /* a new module there has sites of its own */
        uintptr_t ip = (uintptr_t)(atomic_load(&init_sites[i]) >> SITE_INDEX_BITS);
        if (ip >= lo && ip < hi)
            atomic_store(&init_sites[i], 0);
    }
    atomic_fetch_add(&uld_init_sites_gen, 1);
    struct uld_class *c, *tmp;
    /* subclasses first: a first-use subclass finds its range through its base */
    for (int pass = 0; pass < 2; pass++)
        HASH_ITER(hh, classes, c, tmp) {
            if ((c->k.subclass != 0) == pass || uld_addr_is_unloaded(c->k.key) ||
                !class_in_range(c, lo, hi))
                continue;
            uintptr_t key = c->k.kind == ULD_SITE_FIRST_USE || uld_key_is_chain(c->k.key)
                                ? (c->k.key & ((1ull << ULD_ADDR_BITS) - 1)) /* a hash */
                                : c->k.key;
            rekey(c, uld_addr_mark_unloaded(key, index));
        }
}

/*
 * The writable segments (.data, .bss) of the loaded objects, kept until the
 * loader's counts of loads and unloads move.  A lock used without an init
 * call (every std::mutex) asks "is it static?" when its record is made, and
 * walking every object's program headers costs 2,400 instructions there;
 * reading the counts is one callback.  graph_lock protects the table.
 */
#define MAX_DATA_SEGMENTS 512
static struct {
    uintptr_t lo, hi;
} data_segments[MAX_DATA_SEGMENTS];
static int ndata_segments, segments_overflow;
static unsigned long long segments_adds = ~0ull, segments_subs;

struct loader_counts {
    unsigned long long adds, subs;
};

static int read_counts(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct loader_counts *c = arg;
    if (size < offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
        return 1; /* counts unknown: stay ~0, never cached */
    c->adds = info->dlpi_adds;
    c->subs = info->dlpi_subs;
    return 1;
}

static int collect_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size, (void)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        if (ndata_segments == MAX_DATA_SEGMENTS) {
            segments_overflow = 1;
            return 1;
        }
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        data_segments[ndata_segments].lo = start;
        data_segments[ndata_segments++].hi = start + ph->p_memsz;
    }
    return 0;
}

struct static_query {
    uintptr_t addr;
    int found;
};

static int find_segment(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct static_query *q = arg;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && q->addr >= start &&
            q->addr < start + ph->p_memsz) {
            q->found = 1;
            return 1;
        }
    }
    return 0;
}

/* Is addr inside a loaded object's writable segment?  graph_lock held. */
int uld_addr_is_static(uintptr_t addr)
{
    struct loader_counts c = {~0ull, 0};
    dl_iterate_phdr(read_counts, &c);
    if (c.adds == ~0ull || c.adds != segments_adds || c.subs != segments_subs ||
        segments_overflow) {
        ndata_segments = 0;
        segments_overflow = 0;
        dl_iterate_phdr(collect_segments, NULL);
        segments_adds = segments_overflow ? ~0ull : c.adds;
        segments_subs = c.subs;
    }
    for (int i = 0; i < ndata_segments; i++)
        if (addr >= data_segments[i].lo && addr < data_segments[i].hi)
            return 1;
    if (segments_overflow) { /* more segments than the table: ask the loader */
        struct static_query q = {addr, 0};
        dl_iterate_phdr(find_segment, &q);
        return q.found;
    }
    return 0;
}
