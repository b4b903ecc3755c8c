/*
 * symranges.c - a module's function symbols, read from its own file while
 * a lock is created: "which functions does this module name?"
 *
 * Runs under graph_lock, where malloc and libdw must not run (a program's
 * allocator may be initialising its own mutex): each file is read with
 * open/mmap, and what is kept lives in arena memory.  Two users:
 * wrappers.c (functions whose names match the wrapper globs) and the
 * class keying of init sites in code that has no name (lockmap.c): a
 * module without .symtab whose .dynsym covers only its exported functions,
 * as Debian ships its binaries.
 */
#include "lock.h"
#include "modules.h"
#include "symranges.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The symbol table section to read: .symtab when present, else .dynsym. */
static const Elf64_Shdr *symbol_section(const unsigned char *img, size_t size)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff > size || (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
        return NULL;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff), *dyn = NULL;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type == SHT_SYMTAB)
            return &sh[i];
        if (sh[i].sh_type == SHT_DYNSYM)
            dyn = &sh[i];
    }
    return dyn;
}

static int scan_image(const unsigned char *img, size_t size, uintptr_t base,
                      uld_func_symbol_fn fn, void *arg)
{
    const Elf64_Shdr *sym = symbol_section(img, size);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (!sym || sym->sh_link >= eh->e_shnum || sym->sh_offset > size ||
        sym->sh_size > size - sym->sh_offset)
        return ULD_SYMS_NONE;
    int kind = sym->sh_type == SHT_SYMTAB ? ULD_SYMS_SYMTAB : ULD_SYMS_DYNSYM;
    const Elf64_Shdr *str = (const Elf64_Shdr *)(img + eh->e_shoff) + sym->sh_link;
    const Elf64_Sym *s = (const Elf64_Sym *)(img + sym->sh_offset);
    size_t n = sym->sh_size / sizeof(*s);
    if (str->sh_offset > size || str->sh_size > size - str->sh_offset)
        return kind;
    for (size_t i = 0; i < n; i++) {
        if (ELF64_ST_TYPE(s[i].st_info) != STT_FUNC || !s[i].st_value ||
            s[i].st_name >= str->sh_size)
            continue;
        const char *name = (const char *)img + str->sh_offset + s[i].st_name;
        if (!memchr(name, '\0', str->sh_size - s[i].st_name))
            continue;
        uintptr_t lo = base + s[i].st_value;
        fn(name, lo, lo + (s[i].st_size ? s[i].st_size : 1), arg);
    }
    return kind;
}

int uld_scan_func_symbols(const char *path, uintptr_t base, uld_func_symbol_fn fn, void *arg)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return ULD_SYMS_NONE;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
        close(fd);
        return ULD_SYMS_NONE;
    }
    size_t size = (size_t)st.st_size;
    const unsigned char *img = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return ULD_SYMS_NONE;
    int kind = scan_image(img, size, base, fn, arg);
    munmap((void *)img, size);
    return kind;
}

struct module_query {
    uintptr_t addr;
    struct uld_module_span *out;
};

static int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct module_query *q = arg;
    uintptr_t lo, hi;
    (void)size;
    uld_module_extent(info, &lo, &hi);
    if (q->addr < lo || q->addr >= hi)
        return 0;
    q->out->lo = lo;
    q->out->hi = hi;
    q->out->base = info->dlpi_addr;
    q->out->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
    return 1;
}

int uld_module_span_of(uintptr_t addr, struct uld_module_span *out)
{
    struct module_query q = {addr, out};
    return dl_iterate_phdr(find_module, &q);
}

/* ---- named functions of modules without .symtab ------------------------- */

struct fn_range {
    uintptr_t lo, hi;
};

struct module_names {
    uintptr_t lo, hi;          /* the module's mapped code and data */
    int has_symtab;            /* every function has a name: nothing to keep */
    struct fn_range *ranges;   /* .dynsym functions, sorted by lo */
    int nranges, cap;
    struct module_names *next;
};

static struct module_names *modules;

static void keep_range(const char *name, uintptr_t lo, uintptr_t hi, void *arg)
{
    struct module_names *m = arg;
    (void)name;
    if (m->nranges == m->cap) {
        int cap = m->cap ? 2 * m->cap : 64;
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

/* Shell sort: no malloc, and a module has at most some ten thousand exports. */
static void sort_ranges(struct fn_range *r, int n)
{
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            struct fn_range v = r[i];
            int j = i;
            for (; j >= gap && r[j - gap].lo > v.lo; j -= gap)
                r[j] = r[j - gap];
            r[j] = v;
        }
}

static struct module_names *names_at(uintptr_t pc)
{
    struct module_names *m = modules;
    while (m && (pc < m->lo || pc >= m->hi))
        m = m->next;
    if (m)
        return m;
    struct uld_module_span s;
    if (!uld_module_span_of(pc, &s) || !(m = uld_alloc(sizeof(*m))))
        return NULL;
    memset(m, 0, sizeof(*m));
    m->lo = s.lo;
    m->hi = s.hi;
    /* an unreadable file says nothing: take it as named (the old keying) */
    int kind = uld_scan_func_symbols(s.path, s.base, keep_range, m);
    m->has_symtab = kind != ULD_SYMS_DYNSYM;
    if (m->has_symtab && m->ranges) {
        uld_free(m->ranges, (size_t)m->cap * sizeof(*m->ranges));
        m->ranges = NULL;
        m->nranges = m->cap = 0;
    }
    sort_ranges(m->ranges, m->nranges);
    m->next = modules;
    modules = m;
    return m;
}

/* Is the call before return address ret in a function its module does not
 * name (no .symtab, no .dynsym function covering it)?  graph_lock held. */
int uld_addr_unnamed(uintptr_t ret)
{
    if (!ret)
        return 0;
    uintptr_t pc = ret - 1;
    struct module_names *m = names_at(pc);
    if (!m || m->has_symtab)
        return 0;
    /* ranges sorted by start; aliases and nesting are few: look back a little */
    int lo = 0, hi = m->nranges;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (m->ranges[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int i = lo - 1, seen = 0; i >= 0 && seen < 16; i--, seen++)
        if (pc < m->ranges[i].hi)
            return 0;
    return 1;
}

/* Do two return addresses lie in one loaded module?  graph_lock held. */
int uld_same_module(uintptr_t a, uintptr_t b)
{
    struct module_names *m = names_at(a - 1);
    return m && b - 1 >= m->lo && b - 1 < m->hi;
}

void uld_symranges_forget_range(uintptr_t lo, uintptr_t hi)
{
    for (struct module_names **p = &modules; *p;) {
        struct module_names *m = *p;
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
