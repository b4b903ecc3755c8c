/*
 * symindex.c - a module's symbol table sorted by address (symindex.h).
 *
 * libdw numbers a module's symbols (dwfl_module_getsym_info), locals
 * first, and dwfl_module_addrinfo picks among those at or below an address
 * by rules that depend on that order: a pass over the globals, then over
 * the locals only if no global matched; among sized symbols holding the
 * address the highest start, else the stronger binding (global, weak,
 * local), else the smaller size, else the first in table order; failing
 * those, a sizeless label at the end of the last symbol below the address.
 * The index finds the few sized symbols holding an address by a binary
 * search and applies the same rules to them in table order.  The rare
 * answers that need more of libdw (a sizeless label that might win, which
 * needs section headers; dozens of symbols holding one address) are left to
 * libdw itself, so every answer is libdw's.
 *
 * Arrays come from the arena, never malloc: a program's signal handler may
 * print a report (dwload.c).
 */
#include "symindex.h"
#include "base/uthash_arena.h"

/* ppc64 ELFv1 resolves function descriptors, and libdw then matches both
 * the descriptor and the code address: leave that to libdw. */
#if defined(__powerpc64__) && (!defined(_CALL_ELF) || _CALL_ELF == 1)
#define SYMINDEX_USABLE 0
#else
#define SYMINDEX_USABLE 1
#endif

#define NO_FILE UINT32_MAX

struct sym_entry {
    GElf_Addr value;   /* libdw's address for it (load bias applied) */
    GElf_Xword size;
    GElf_Addr max_end; /* highest end of this entry and all before it in address order */
    uint32_t ndx;      /* libdw's number for the symbol: its table order */
    uint32_t file;     /* objects: number of the STT_FILE symbol before it, or NO_FILE */
    unsigned char info;
};

struct sym_index {
    Dwfl_Module *mod;
    UT_hash_handle hh;
    int ask_libdw;    /* out of memory while building: every query goes to libdw */
    int no_symtab;    /* libdw has no symbol table for it: no symbol anywhere */
    int first_global; /* libdw's: 0 when its table has no local part (one pass) */
    struct sym_entry *syms; /* what dwfl_module_addrinfo considers */
    size_t nsyms;
    struct sym_entry *objects; /* STT_OBJECT symbols, for their scope */
    size_t nobjects;
};

static struct sym_index *indexes;

/* ---- building --------------------------------------------------------------- */

static int entry_before(const struct sym_entry *a, const struct sym_entry *b)
{
    return a->value != b->value ? a->value < b->value : a->ndx < b->ndx;
}

static void swap_entries(struct sym_entry *a, struct sym_entry *b)
{
    struct sym_entry t = *a;
    *a = *b;
    *b = t;
}

static void sift_down(struct sym_entry *a, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && entry_before(&a[child], &a[child + 1]))
            child++;
        if (!entry_before(&a[root], &a[child]))
            return;
        swap_entries(&a[root], &a[child]);
        root = child;
    }
}

/* Heapsort: qsort may call malloc. */
static void sort_entries(struct sym_entry *a, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (size_t end = n; end-- > 1;) {
        swap_entries(&a[0], &a[end]);
        sift_down(a, 0, end);
    }
}

static GElf_Addr end_of(const struct sym_entry *e, GElf_Xword min_size)
{
    GElf_Xword size = e->size > min_size ? e->size : min_size;
    GElf_Addr end = e->value + size;
    return end < e->value ? ~(GElf_Addr)0 : end;
}

/* Sort by address and record the running maximum end, which ends the
 * backwards walk over the symbols that may hold an address. */
static void finish(struct sym_entry *a, size_t n, GElf_Xword min_size)
{
    sort_entries(a, n);
    GElf_Addr max_end = 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Addr end = end_of(&a[i], min_size);
        max_end = end > max_end ? end : max_end;
        a[i].max_end = max_end;
    }
}

/* The first n entries of a (allocated for cap) in a block of their own size. */
static struct sym_entry *shrink(struct sym_entry *a, size_t n, size_t cap)
{
    struct sym_entry *exact = n ? uld_alloc(n * sizeof(*a)) : NULL;
    if (exact)
        memcpy(exact, a, n * sizeof(*a));
    uld_free(a, cap * sizeof(*a));
    return exact;
}

/* What __libdwfl_addrsym looks at: named, defined, not a section, file or TLS symbol. */
static int addrinfo_candidate(const char *name, const GElf_Sym *sym)
{
    int type = GELF_ST_TYPE(sym->st_info);
    return name[0] && sym->st_shndx != SHN_UNDEF && type != STT_SECTION && type != STT_FILE &&
           type != STT_TLS;
}

static void build(struct sym_index *x, Dwfl_Module *m)
{
    int n = dwfl_module_getsymtab(m);
    if (n < 0) {
        x->no_symtab = 1;
        return;
    }
    x->first_global = dwfl_module_getsymtab_first_global(m);
    size_t cap = (size_t)n;
    struct sym_entry *syms = cap ? uld_alloc(cap * sizeof(*syms)) : NULL;
    struct sym_entry *objects = cap ? uld_alloc(cap * sizeof(*objects)) : NULL;
    if (x->first_global < 0 || (cap && (!syms || !objects))) {
        uld_free(syms, cap * sizeof(*syms));
        uld_free(objects, cap * sizeof(*objects));
        x->ask_libdw = 1;
        return;
    }
    size_t ns = 0, no = 0;
    uint32_t last_file = NO_FILE;
    for (int i = 0; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr value;
        const char *name = dwfl_module_getsym_info(m, i, &sym, &value, NULL, NULL, NULL);
        if (!name)
            continue;
        struct sym_entry e = {value, sym.st_size, 0, (uint32_t)i, NO_FILE, sym.st_info};
        if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
            last_file = (uint32_t)i;
        if (i > 0 && addrinfo_candidate(name, &sym)) /* libdw skips the null symbol */
            syms[ns++] = e;
        if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT) {
            e.file = last_file;
            objects[no++] = e;
        }
    }
    finish(syms, ns, 0);
    finish(objects, no, 1);
    x->syms = shrink(syms, ns, cap);
    x->objects = shrink(objects, no, cap);
    x->nsyms = x->syms ? ns : 0;
    x->nobjects = x->objects ? no : 0;
    x->ask_libdw = (ns && !x->syms) || (no && !x->objects);
}

static struct sym_index *index_of(Dwfl_Module *m)
{
    if (!SYMINDEX_USABLE)
        return NULL;
    struct sym_index *x;
    HASH_FIND_PTR(indexes, &m, x);
    if (x)
        return x;
    if (!(x = uld_alloc(sizeof(*x))))
        return NULL;
    x->mod = m;
    build(x, m);
    HASH_ADD_PTR(indexes, mod, x);
    return x;
}

void uld_symindex_forget_all(void)
{
    struct sym_index *x, *tmp;
    HASH_ITER(hh, indexes, x, tmp) {
        HASH_DEL(indexes, x);
        uld_free(x->syms, x->nsyms * sizeof(*x->syms));
        uld_free(x->objects, x->nobjects * sizeof(*x->objects));
        uld_free(x, sizeof(*x));
    }
}

/* ---- queries ---------------------------------------------------------------- */

/* How many entries start at or below addr. */
static size_t count_upto(const struct sym_entry *a, size_t n, GElf_Addr addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid].value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int in_global_pass(const struct sym_index *x, const struct sym_entry *e)
{
    return x->first_global == 0 || e->ndx >= (uint32_t)x->first_global;
}

/* libdw's ranking of bindings, higher is preferred. */
static int binding_rank(const struct sym_entry *e)
{
    switch (GELF_ST_BIND(e->info)) {
    case STB_GLOBAL:
        return 3;
    case STB_WEAK:
        return 2;
    case STB_LOCAL:
        return 1;
    default:
        return 0;
    }
}

/* libdw's choice among sized symbols holding the address, taken in table order. */
static const struct sym_entry *closest_sized(const struct sym_entry **c, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort by table order: n is tiny */
        for (int j = i; j > 0 && c[j - 1]->ndx > c[j]->ndx; j--) {
            const struct sym_entry *t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    const struct sym_entry *best = NULL;
    for (int i = 0; i < n; i++) {
        const struct sym_entry *e = c[i];
        if (!best || best->value < e->value || binding_rank(best) < binding_rank(e))
            best = e;
        else if (best->value == e->value &&
                 ((best->size > e->size && binding_rank(best) <= binding_rank(e)) ||
                  (best->size >= e->size && binding_rank(best) < binding_rank(e))))
            best = e;
    }
    return best;
}

#define MAX_HOLDING 32 /* sized symbols holding one address; more: ask libdw */

static const char *indexed_addrinfo(Dwfl_Module *m, GElf_Addr addr, GElf_Off *off, GElf_Sym *sym)
{
    struct sym_index *x = index_of(m);
    if (!x || x->ask_libdw)
        return dwfl_module_addrinfo(m, addr, off, sym, NULL, NULL, NULL);
    if (x->no_symtab)
        return NULL;
    const struct sym_entry *a = x->syms;
    size_t k = count_upto(a, x->nsyms, addr);
    if (k == 0)
        return NULL;
    const struct sym_entry *global[MAX_HOLDING], *local[MAX_HOLDING];
    int ng = 0, nl = 0, global_label_at_addr = 0;
    for (size_t j = k; j-- > 0 && a[j].value == addr;)
        if (!a[j].size && in_global_pass(x, &a[j]))
            global_label_at_addr = 1;
    for (size_t j = k; j-- > 0 && a[j].max_end > addr;) {
        if (!a[j].size || addr - a[j].value >= a[j].size)
            continue;
        if (in_global_pass(x, &a[j])) {
            if (ng == MAX_HOLDING)
                goto ask_libdw;
            global[ng++] = &a[j];
        } else {
            if (nl == MAX_HOLDING)
                goto ask_libdw;
            local[nl++] = &a[j];
        }
    }
    const struct sym_entry *best;
    if (ng) {
        best = closest_sized(global, ng);
    } else if (global_label_at_addr) {
        goto ask_libdw; /* libdw stops after the globals, if the label is in addr's section */
    } else if (nl) {
        best = closest_sized(local, nl);
    } else {
        /* In no sized symbol: libdw may answer with a sizeless label that
         * starts where the last symbol below addr ends, if in addr's section. */
        GElf_Addr end = a[k - 1].max_end;
        for (size_t j = end ? count_upto(a, k, end - 1) : 0; j < k && a[j].value == end; j++)
            if (!a[j].size)
                goto ask_libdw;
        return NULL;
    }
    GElf_Addr value;
    const char *name = dwfl_module_getsym_info(m, (int)best->ndx, sym, &value, NULL, NULL, NULL);
    if (!name)
        goto ask_libdw;
    *off = addr - value;
    return name;
ask_libdw:
    return dwfl_module_addrinfo(m, addr, off, sym, NULL, NULL, NULL);
}

/* The same answer as indexed_object, reading the whole table. */
int uld_symindex_object_by_scan(Dwfl_Module *m, GElf_Addr addr, int *local, const char **file)
{
    int n = dwfl_module_getsymtab(m);
    const char *last_file = NULL;
    for (int i = 0; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr value;
        const char *name = dwfl_module_getsym_info(m, i, &sym, &value, NULL, NULL, NULL);
        if (!name)
            continue;
        if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
            last_file = name;
        else if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT && addr >= value &&
                 addr < value + (sym.st_size ? sym.st_size : 1)) {
            *local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
            *file = *local ? last_file : NULL;
            return 1;
        }
    }
    return 0;
}

static int indexed_object(Dwfl_Module *m, GElf_Addr addr, int *local, const char **file)
{
    struct sym_index *x = index_of(m);
    if (!x || x->ask_libdw)
        return uld_symindex_object_by_scan(m, addr, local, file);
    const struct sym_entry *a = x->objects, *first = NULL;
    for (size_t j = count_upto(a, x->nobjects, addr); j-- > 0 && a[j].max_end > addr;)
        if (addr < end_of(&a[j], 1) && (!first || a[j].ndx < first->ndx))
            first = &a[j];
    if (!first)
        return 0;
    *local = GELF_ST_BIND(first->info) == STB_LOCAL;
    *file = NULL;
    if (*local && first->file != NO_FILE) {
        GElf_Sym sym;
        GElf_Addr value;
        *file = dwfl_module_getsym_info(m, (int)first->file, &sym, &value, NULL, NULL, NULL);
    }
    return 1;
}

#ifdef ULD_SYMINDEX_CHECK
/* Built with -DULD_SYMINDEX_CHECK, every answer is compared with libdw's
 * scan: a difference is an internal error. */
static void check_addrinfo(Dwfl_Module *m, GElf_Addr addr, const char *name, GElf_Off off,
                           const GElf_Sym *sym)
{
    GElf_Off want_off = 0;
    GElf_Sym want_sym;
    const char *want = dwfl_module_addrinfo(m, addr, &want_off, &want_sym, NULL, NULL, NULL);
    if (want != name || (name && (want_off != off || memcmp(&want_sym, sym, sizeof(*sym))))) {
        uld_warn("symindex: %#lx named %s+%#lx, libdw says %s+%#lx", (unsigned long)addr,
                 name ? name : "(none)", (unsigned long)off, want ? want : "(none)",
                 (unsigned long)want_off);
        uld_abort();
    }
}
#endif

const char *uld_symindex_addrinfo(Dwfl_Module *m, GElf_Addr addr, GElf_Off *off, GElf_Sym *sym)
{
    const char *name = indexed_addrinfo(m, addr, off, sym);
#ifdef ULD_SYMINDEX_CHECK
    check_addrinfo(m, addr, name, *off, sym);
#endif
    return name;
}

int uld_symindex_object(Dwfl_Module *m, GElf_Addr addr, int *local, const char **file)
{
    int found = indexed_object(m, addr, local, file);
#ifdef ULD_SYMINDEX_CHECK
    int want_local = 0;
    const char *want_file = NULL;
    if (uld_symindex_object_by_scan(m, addr, &want_local, &want_file) != found ||
        (found && (want_local != *local || want_file != *file))) {
        uld_warn("symindex: object scope of %#lx differs from the table scan", (unsigned long)addr);
        uld_abort();
    }
#endif
    return found;
}
