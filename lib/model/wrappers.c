/*
 * wrappers.c - "is this code address inside a lock wrapper function?"
 *
 * A lock's class is its init call site in the source, as in the kernel; in
 * userspace that call often sits in a wrapper of the lock API (nng's
 * nni_mtx_init -> nni_plat_mtx_init, sqlite3_mutex_alloc, a C++ Mutex
 * constructor), so the class key skips wrapper frames (lockmap.c).  Which
 * functions are wrappers is a list of globs over symbol names: a built-in
 * list of names that denote the lock API (option builtin_wrappers) plus the
 * user's `wrappers=glob:glob`.
 *
 * This runs when a lock is created, under graph_lock, so it must not call
 * malloc, libdw or anything that may take a program lock: each module's own
 * symbol table (.symtab, else .dynsym) is read once from its file
 * (symranges.c), the matching functions' address ranges are kept in arena
 * memory, and later questions are a range lookup.  Separate debug files are
 * not read here: in a stripped module only exported names can match.
 */
#include "base/config.h"
#include "lock.h"
#include "modules.h"
#include "base/suppress.h"
#include "symranges.h"

/* Names that say "this initialises, allocates or takes a lock" (globs over
 * raw symbol names; C++ constructors by their mangled `<class>C1E`/`C2E`). */
static const char builtin_globs[] =
    "*mtx_init*:*mutex_init*:*mutex_create*:*mutex_alloc*:*MutexAlloc*:*lock_alloc*:"
    "*rwlock_init*:*spinlock_init*:*_lock_init:*_lock_new:new_lock*:init_mutex*:"
    "*MutexC1E*:*MutexC2E*:*CreateMutex*:*CreateOrAcquireMutex*:*AcquireMutex*:"
    "*MutexHolderC1E*:*MutexHolderC2E*:*CreateLock*:*CreateOrAcquireLock*:*AcquireLock*:"
    "*LockHolderC1E*:*LockHolderC2E*:"
    "*LockC1E*:*LockC2E*:*mtx_lock*:*mutex_lock*:*Mutex4Lock*:*mutex4lock*";

struct fn_range {
    uintptr_t lo, hi;
};

struct module_wrappers {
    uintptr_t lo, hi;           /* the module's mapped code and data */
    struct fn_range *ranges;
    int nranges, cap;
    struct module_wrappers *next;
};

static struct module_wrappers *modules;

struct pattern_list {
    char text[2 * ULD_PATH_MAX + sizeof(builtin_globs)];
    const char *glob[128];
    char literal[128][32]; /* a run of the glob that every match contains */
    uint64_t literal_pairs[128]; /* its character pairs (pairs_of) */
    int n;
};

static struct pattern_list patterns;
static int patterns_ready;

static void add_globs(const char *list)
{
    size_t used = 0;
    while (patterns.text[used])
        used++;
    if (used)
        patterns.text[used++] = ':';
    uld_snprintf(patterns.text + used, sizeof(patterns.text) - used, "%s", list);
}

/*
 * The longest run of plain characters in glob g (at most 31 of them): a
 * name without it cannot match.  Module scans test every function name of
 * a library against every glob (20,000 mangled C++ names against 30 globs
 * in librocksdb), and strstr rejects almost all of them far faster than
 * the glob matcher walking each name once per glob.
 */
static void required_literal(const char *g, char out[32])
{
    size_t best = 0, best_len = 0, i = 0;
    while (g[i]) {
        size_t len = strcspn(g + i, "*?");
        if (len > best_len) {
            best = i;
            best_len = len;
        }
        i += len + (g[i + len] ? 1 : 0);
    }
    if (best_len > 31)
        best_len = 31;
    memcpy(out, g + best, best_len);
    out[best_len] = '\0';
}

/* The pairs of adjacent characters s holds, hashed into 64 bits: a name
 * that lacks one of a literal's pairs does not contain the literal. */
static uint64_t pairs_of(const char *s)
{
    uint64_t pairs = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (unsigned prev = p[0]; prev && p[1]; prev = *++p)
        pairs |= 1ull << ((prev * 31u + p[1]) & 63);
    return pairs;
}

static void load_patterns(void)
{
    patterns_ready = 1;
    patterns.text[0] = '\0';
    if (uld_config.builtin_wrappers)
        add_globs(builtin_globs);
    if (uld_config.wrappers[0])
        add_globs(uld_config.wrappers);
    for (char *p = patterns.text; *p && patterns.n < (int)ULD_ARRAY_SIZE(patterns.glob);) {
        char *end = strchr(p, ':');
        if (end)
            *end = '\0';
        if (*p) {
            required_literal(p, patterns.literal[patterns.n]);
            patterns.literal_pairs[patterns.n] = pairs_of(patterns.literal[patterns.n]);
            patterns.glob[patterns.n++] = p;
        }
        if (!end)
            break;
        p = end + 1;
    }
}

/* One pass over the name rules out most literals before strstr reads the
 * name once per literal (30 of them: a third of the validator's
 * instructions in a short gdal_translate went to those strstr calls). */
static int name_is_wrapper(const char *name)
{
    uint64_t pairs = pairs_of(name);
    for (int i = 0; i < patterns.n; i++)
        if (!(patterns.literal_pairs[i] & ~pairs) && strstr(name, patterns.literal[i]) &&
            uld_glob_match(patterns.glob[i], name))
            return 1;
    return 0;
}

static void add_range(struct module_wrappers *m, uintptr_t lo, uintptr_t hi)
{
    if (m->nranges == m->cap) {
        int cap = m->cap ? 2 * m->cap : 16;
        struct fn_range *r = uld_alloc((size_t)cap * sizeof(*r));
        if (!r)
            return;
        if (m->ranges) {
            memcpy(r, m->ranges, (size_t)m->nranges * sizeof(*r));
            uld_free(m->ranges, (size_t)m->cap * sizeof(*r));
        }
        m->ranges = r;
        m->cap = cap;
    }
    m->ranges[m->nranges++] = (struct fn_range){lo, hi};
}

static void keep_wrapper(const char *name, uintptr_t lo, uintptr_t hi, void *arg)
{
    if (name_is_wrapper(name))
        add_range(arg, lo, hi);
}

static struct module_wrappers *scan_module(uintptr_t pc)
{
    struct uld_module_span s;
    struct module_wrappers *m;
    if (!uld_module_span_of(pc, &s) || !(m = uld_alloc(sizeof(*m))))
        return NULL;
    memset(m, 0, sizeof(*m));
    m->lo = s.lo;
    m->hi = s.hi;
    uld_scan_func_symbols(s.path, s.base, keep_wrapper, m);
    return m;
}

/* The wrappers of the module holding pc, scanned at the first question. */
static struct module_wrappers *module_at(uintptr_t pc)
{
    struct module_wrappers *m = modules;
    while (m && (pc < m->lo || pc >= m->hi))
        m = m->next;
    if (!m) {
        if (!(m = scan_module(pc)))
            return NULL;
        m->next = modules;
        modules = m;
    }
    return m;
}

/* Does addr (a return address) lie in a function the wrapper globs name?  graph_lock held. */
int uld_in_wrapper(uintptr_t addr)
{
    if (!patterns_ready)
        load_patterns();
    if (!patterns.n || !addr)
        return 0;
    uintptr_t pc = addr - 1; /* the call instruction */
    struct module_wrappers *m = module_at(pc);
    if (!m)
        return 0;
    for (int i = 0; i < m->nranges; i++)
        if (pc >= m->ranges[i].lo && pc < m->ranges[i].hi)
            return 1;
    return 0;
}

/* Has addr's module any wrapper?  graph_lock held. */
int uld_module_has_wrappers(uintptr_t addr)
{
    if (!patterns_ready)
        load_patterns();
    if (!patterns.n || !addr)
        return 0;
    struct module_wrappers *m = module_at(addr - 1);
    return m && m->nranges > 0;
}

/* A module unloaded: a module mapped there later has functions of its own. */
void uld_wrappers_forget_range(uintptr_t lo, uintptr_t hi)
{
    for (struct module_wrappers **p = &modules; *p;) {
        struct module_wrappers *m = *p;
        if (m->lo < hi && lo < m->hi) {
            *p = m->next;
            if (m->ranges)
                uld_free(m->ranges, (size_t)m->cap * sizeof(*m->ranges));
            uld_free(m, sizeof(*m));
        } else {
            p = &m->next;
        }
    }
}
