/*
 * modules.c - dlclose ends the identity of what lived in the module.
 *
 * The dlclose wrapper takes a snapshot of the loaded objects before the real
 * call and hands it back after: every object of the snapshot that is gone
 * (the module, and dependencies unloaded with it) is retired here, under
 * graph_lock, unless something is already mapped at its addresses again:
 *
 * - lock records in its range (its static locks) are forgotten;
 * - classes keyed by an address in it (static locks, init sites,
 *   annotation keys) and first-use classes whose site is in it are rekeyed
 *   to unloaded addresses (modules.h): a new module at the same addresses
 *   makes new classes, while the old ones, still referenced by edges and by
 *   heap locks that outlive the module, keep their names;
 * - the stack depot's frames in it are rewritten the same way, so reports
 *   name them from the unloaded file (symbolize.c), never from whatever is
 *   mapped there later;
 * - the lock-wrapper ranges of the module are dropped.
 * The report side (symbol and name caches, the symboliser's module map)
 * catches up at its next use by comparing uld_unloaded_count().
 *
 * Nothing here runs libdw: dlclose costs a walk of the loaded objects, and
 * of the classes and the depot when something went away.  Unload records:
 * written under graph_lock, published with a release store of the count.
 */
#include "base/config.h"
#include "base/tablefull.h"
#include "state.h"
#include "lock.h"
#include "modules.h"
#include "symranges.h"

#include <elf.h>
#include <link.h>
#include <string.h>

struct mod_entry {
    uintptr_t base, lo, hi;
    const void *phdr; /* identity while loaded, with base */
    char *path;
    uint8_t build_id[32];
    int build_id_len;
};

struct uld_modset {
    int n, cap;
    struct mod_entry e[];
};

static struct uld_unloaded *records[ULD_MAX_UNLOADED];
static _Atomic unsigned nrecords;

unsigned uld_unloaded_count(void)
{
    return atomic_load_explicit(&nrecords, memory_order_acquire);
}

const struct uld_unloaded *uld_unloaded_get(unsigned index)
{
    return index < uld_unloaded_count() ? records[index] : NULL;
}

const struct uld_unloaded *uld_unloaded_covering(uintptr_t a)
{
    for (unsigned i = uld_unloaded_count(); i-- > 0;)
        if (a >= records[i]->lo && a < records[i]->hi)
            return records[i];
    return NULL;
}

/* ---- the loaded objects ----------------------------------------------- */

/* NT_GNU_BUILD_ID from the object's mapped PT_NOTE segments. */
static int read_build_id(const struct dl_phdr_info *info, uint8_t *out, int max)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            const char *name = p + sizeof(*nh);
            const char *desc = name + ((nh->n_namesz + 3) & ~3u);
            if (desc + nh->n_descsz > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
                int n = nh->n_descsz < (unsigned)max ? (int)nh->n_descsz : max;
                memcpy(out, desc, (size_t)n);
                return n;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
    return 0;
}

void uld_module_extent(const struct dl_phdr_info *info, uintptr_t *lo, uintptr_t *hi)
{
    *lo = UINTPTR_MAX;
    *hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t s = info->dlpi_addr + ph->p_vaddr;
        if (s < *lo)
            *lo = s;
        if (s + ph->p_memsz > *hi)
            *hi = s + ph->p_memsz;
    }
    if (*hi == 0)
        *lo = 0;
}

static void describe(const struct dl_phdr_info *info, struct mod_entry *e)
{
    e->base = info->dlpi_addr;
    e->phdr = info->dlpi_phdr;
    uld_module_extent(info, &e->lo, &e->hi);
}

static int count_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)info, (void)size;
    ++*(int *)arg;
    return 0;
}

static int snapshot_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct uld_modset *s = arg;
    if (s->n >= s->cap || !info->dlpi_name || !info->dlpi_name[0])
        return 0; /* the program itself and the vDSO are never unloaded */
    struct mod_entry *e = &s->e[s->n];
    describe(info, e);
    if (!e->hi || !(e->path = uld_strdup(info->dlpi_name)))
        return 0;
    e->build_id_len = read_build_id(info, e->build_id, (int)sizeof(e->build_id));
    s->n++;
    return 0;
}

void uld_modset_free(struct uld_modset *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->e[i].path)
            uld_free(s->e[i].path, strlen(s->e[i].path) + 1);
    uld_free(s, sizeof(*s) + (size_t)s->cap * sizeof(s->e[0]));
}

struct uld_modset *uld_modset_take(void)
{
    int n = 0;
    dl_iterate_phdr(count_one, &n);
    struct uld_modset *s = uld_alloc(sizeof(*s) + (size_t)(n + 8) * sizeof(s->e[0]));
    if (s) {
        s->cap = n + 8;
        dl_iterate_phdr(snapshot_one, s);
    }
    return s;
}

/* ---- which are gone ----------------------------------------------------- */

struct presence {
    const struct mod_entry *e;
    int found;        /* the same object is still loaded */
    int overlapped;   /* something loaded overlaps its range */
};

static int find_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct presence *p = arg;
    struct mod_entry now;
    describe(info, &now);
    if (now.base == p->e->base && now.phdr == p->e->phdr) {
        p->found = 1;
        return 1;
    }
    if (now.hi && now.lo < p->e->hi && p->e->lo < now.hi)
        p->overlapped = 1;
    return 0;
}

static void forget_lock(struct uld_lock *l, void *arg)
{
    (void)arg;
    uld_lock_forget(l);
}

/* A record of e, or -1 when the table is full (said once). */
static int new_record(const struct mod_entry *e)
{
    unsigned i = atomic_load_explicit(&nrecords, memory_order_relaxed);
    if (i >= ULD_MAX_UNLOADED) {
        uld_table_full("unloaded-module", ULD_MAX_UNLOADED, NULL);
        return -1;
    }
    struct uld_unloaded *r = uld_alloc(sizeof(*r));
    if (!r || !(r->path = uld_strdup(e->path)))
        return -1;
    r->lo = e->lo;
    r->hi = e->hi;
    r->base = e->base;
    memcpy(r->build_id, e->build_id, sizeof(r->build_id));
    r->build_id_len = e->build_id_len;
    records[i] = r;
    return (int)i;
}

/* graph_lock held */
static void retire(const struct mod_entry *e)
{
    int index = new_record(e);
    if (index < 0)
        return; /* identities stay as they were (the behaviour before unloads ended them) */
    uld_lockmap_for_range(e->lo, e->hi - e->lo, forget_lock, NULL);
    uld_class_retire_range(e->lo, e->hi, (unsigned)index);
    uld_stack_retire_range(e->lo, e->hi, (unsigned)index);
    uld_graph_retire_range(&uld_lock_graph, e->lo, e->hi, (unsigned)index);
    uld_graph_retire_range(&uld_class_graph, e->lo, e->hi, (unsigned)index);
    uld_wrappers_forget_range(e->lo, e->hi);
    uld_symranges_forget_range(e->lo, e->hi);
    atomic_store_explicit(&nrecords, (unsigned)index + 1, memory_order_release);
}

void uld_modset_retire_gone(struct uld_modset *s)
{
    for (int i = 0; i < s->n; i++) {
        struct presence p = {&s->e[i], 0, 0};
        dl_iterate_phdr(find_one, &p);
        /* mapped again already (another thread's dlopen): its identities
         * stay; a limit (docs/design.md) */
        if (!p.found && !p.overlapped)
            retire(&s->e[i]);
    }
}

/* ---- the same file loaded again ------------------------------------------ */

struct owner_query {
    uintptr_t addr;
    struct mod_entry e;
    char path[ULD_PATH_MAX];
    int found;
};

static int owner_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct owner_query *q = arg;
    describe(info, &q->e);
    if (!q->e.hi || q->addr < q->e.lo || q->addr >= q->e.hi || !info->dlpi_name)
        return 0;
    uld_snprintf(q->path, sizeof(q->path), "%s", info->dlpi_name);
    q->e.build_id_len = read_build_id(info, q->e.build_id, (int)sizeof(q->e.build_id));
    q->found = 1;
    return 1;
}

static int same_file(const struct uld_unloaded *r, const struct owner_query *q)
{
    return r->hi - r->lo == q->e.hi - q->e.lo && r->build_id_len == q->e.build_id_len &&
           !memcmp(r->build_id, q->e.build_id, (size_t)r->build_id_len) &&
           !strcmp(r->path, q->path);
}

#define EARLIER_LOADS_SEARCHED 64

int uld_unloaded_earlier_keys(uintptr_t key, int (*fn)(uintptr_t old_key, void *), void *arg)
{
    unsigned n = uld_unloaded_count();
    if (n == 0 || uld_addr_is_unloaded(key) || (key >> 63))
        return 0;
    static struct owner_query q; /* graph_lock held: one caller at a time */
    q.addr = key;
    q.found = 0;
    dl_iterate_phdr(owner_one, &q);
    if (!q.found)
        return 0;
    unsigned seen = 0;
    for (unsigned i = n; i-- > 0 && seen < EARLIER_LOADS_SEARCHED;) {
        const struct uld_unloaded *r = records[i];
        if (!same_file(r, &q))
            continue;
        seen++;
        if (fn(uld_addr_mark_unloaded(r->lo + (key - q.e.lo), i), arg))
            return 1;
    }
    return 0;
}
