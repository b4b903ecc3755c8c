/*
 * symbolize.c - code and data addresses to names, at report time only:
 * libdw (elfutils) for function, file and line; C++ names demangled with the
 * program's own __cxa_demangle when it has one.  Results are cached for the
 * process lifetime.  Callers hold the report lock, which serialises all of
 * this; libdw may allocate, which is why it never runs on a lock path.
 */
#include "config.h"
#include "output.h"
#include "stack.h"
#include "uthash_arena.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <unistd.h>

struct sym_cache {
    uintptr_t addr;
    struct uld_frame_info info;
    UT_hash_handle hh;
};

static Dwfl *dwfl;
static struct sym_cache *cache;
static char *(*demangle)(const char *, char *, size_t *, int *);
static int demangle_looked_up;

/*
 * libdw keeps open every file it reads, at the program's lowest free
 * numbers, where the program expects its own next descriptors and may
 * close them.  A module's file is mapped and its descriptor closed at once
 * (ELF_C_FDDONE: libelf never reads it again); a separate debug file keeps
 * its descriptor, moved to the top of the table and closed on exec.
 */
static int find_elf_mapped(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
                           char **file_name, Elf **elfp)
{
    int fd = dwfl_linux_proc_find_elf(mod, userdata, name, base, file_name, elfp);
    if (fd < 0 || *elfp)
        return fd < 0 ? fd : uld_fd_move_high(fd);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
    if (!elf || elf_cntl(elf, ELF_C_FDDONE) != 0) {
        if (elf)
            elf_end(elf);
        return uld_fd_move_high(fd);
    }
    close(fd);
    *elfp = elf;
    return -1;
}

static int find_debuginfo_high(Dwfl_Module *mod, void **userdata, const char *name,
                               Dwarf_Addr base, const char *file_name,
                               const char *debuglink_file, GElf_Word debuglink_crc,
                               char **debuginfo_file_name)
{
    /* local files by build-id only: a report never waits on a debuginfod server */
    int fd = dwfl_build_id_find_debuginfo(mod, userdata, name, base, file_name, debuglink_file,
                                          debuglink_crc, debuginfo_file_name);
    return fd < 0 ? fd : uld_fd_move_high(fd);
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = find_elf_mapped,
    .find_debuginfo = find_debuginfo_high,
};

/*
 * (Re)read /proc/self/maps.  Modules already known stay valid, so cached
 * strings that point into libdw stay valid too; a fork child shares the
 * parent's mappings and keeps using the same session.
 */
static int report_modules(void)
{
    if (!dwfl) {
        dwfl = dwfl_begin(&callbacks);
        if (!dwfl)
            return 0;
        dwfl_report_begin(dwfl);
    } else {
        dwfl_report_begin_add(dwfl);
    }
    int r = dwfl_linux_proc_report(dwfl, getpid());
    dwfl_report_end(dwfl, NULL, NULL);
    return r == 0;
}

struct segment_search {
    uintptr_t addr;
    Dwfl_Module *found;
};

/* Does addr fall in one of m's PT_LOAD segments, counting their memsz? */
static int segment_contains(Dwfl_Module *m, void **user, const char *name, Dwarf_Addr start,
                            void *arg)
{
    (void)user, (void)name, (void)start;
    struct segment_search *s = arg;
    Dwarf_Addr bias;
    Elf *elf = dwfl_module_getelf(m, &bias);
    size_t n;
    if (!elf || elf_getphdrnum(elf, &n) != 0)
        return DWARF_CB_OK;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);
        if (ph && ph->p_type == PT_LOAD && s->addr >= bias + ph->p_vaddr &&
            s->addr < bias + ph->p_vaddr + ph->p_memsz) {
            s->found = m;
            return DWARF_CB_ABORT;
        }
    }
    return DWARF_CB_OK;
}

static Dwfl_Module *module_of(uintptr_t addr)
{
    if (!dwfl && !report_modules())
        return NULL;
    Dwfl_Module *m = dwfl_addrmodule(dwfl, addr);
    if (!m && report_modules()) /* loaded since we last looked (dlopen) */
        m = dwfl_addrmodule(dwfl, addr);
    if (!m) {
        /* Modules read from /proc/self/maps cover their file-backed pages
         * only, not the anonymous tail of .bss where static locks live. */
        struct segment_search s = {addr, NULL};
        dwfl_getmodules(dwfl, segment_contains, &s, 0);
        m = s.found;
    }
    return m;
}

static const char *maybe_demangle(const char *name)
{
    if (!name || name[0] != '_' || name[1] != 'Z')
        return name;
    if (!demangle_looked_up) {
        demangle_looked_up = 1;
        demangle = (char *(*)(const char *, char *, size_t *, int *))dlsym(
            RTLD_DEFAULT, "__cxa_demangle");
    }
    if (!demangle)
        return name;
    int status = -1;
    char *d = demangle(name, NULL, NULL, &status);
    if (status != 0 || !d)
        return name;
    char *copy = uld_strdup(d);
    free(d);
    return copy ? copy : name;
}

/*
 * Code inlined into a function (a header's inline wrapper, std::mutex::lock)
 * has line information pointing into the inlined body.  Report the position
 * in the function itself: the call site of the outermost inlined scope.
 */
static void inlined_call_site(Dwfl_Module *m, uintptr_t pc, struct uld_frame_info *out)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias);
    Dwarf_Die *scopes = NULL, *chain = NULL;
    /* scopes[0] is the innermost scope; its concrete parents (the outer
     * inlined calls, then the function) come from dwarf_getscopes_die() */
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
    int len = n > 0 ? dwarf_getscopes_die(&scopes[0], &chain) : 0;
    int outer = -1;
    for (int i = 0; i < len; i++) {
        int tag = dwarf_tag(&chain[i]);
        if (tag == DW_TAG_subprogram)
            break;
        if (tag == DW_TAG_inlined_subroutine)
            outer = i;
    }
    Dwarf_Attribute attr;
    Dwarf_Word line = 0, file = 0;
    Dwarf_Files *files;
    size_t nfiles;
    if (outer >= 0 &&
        dwarf_formudata(dwarf_attr(&chain[outer], DW_AT_call_line, &attr), &line) == 0 &&
        dwarf_formudata(dwarf_attr(&chain[outer], DW_AT_call_file, &attr), &file) == 0 &&
        dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && file < nfiles) {
        const char *name = dwarf_filesrc(files, file, NULL, NULL);
        if (name) {
            out->file = name;
            out->line = (int)line;
        }
    }
    free(chain);
    free(scopes);
}

static void resolve(uintptr_t addr, int is_return, struct uld_frame_info *out)
{
    memset(out, 0, sizeof(*out));
    Dwfl_Module *m = module_of(addr);
    if (!m)
        return;
    Dwarf_Addr base = 0;
    const char *mname = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, NULL, NULL);
    out->module = mname;
    out->module_offset = addr - (uintptr_t)base;
    uintptr_t lookup = is_return ? addr - 1 : addr;
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *fn = dwfl_module_addrinfo(m, lookup, &off, &sym, NULL, NULL, NULL);
    if (fn) {
        out->function = maybe_demangle(fn);
        out->fn_offset = (uintptr_t)off + (lookup != addr);
    }
    Dwfl_Line *line = dwfl_module_getsrc(m, lookup);
    if (line) {
        int lineno = 0;
        const char *file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
        if (file) {
            out->file = file;
            out->line = lineno;
        }
    }
    inlined_call_site(m, lookup, out);
}

void uld_symbolize(uintptr_t addr, int is_return, struct uld_frame_info *out)
{
    if (!uld_config.symbolize) {
        memset(out, 0, sizeof(*out));
        return;
    }
    uintptr_t key = addr ^ (is_return ? 1ull << 63 : 0);
    struct sym_cache *c;
    HASH_FIND(hh, cache, &key, sizeof(key), c);
    if (c) {
        *out = c->info;
        return;
    }
    resolve(addr, is_return, out);
    c = uld_alloc(sizeof(*c));
    if (c) {
        c->addr = key;
        c->info = *out;
        HASH_ADD(hh, cache, addr, sizeof(c->addr), c);
    }
}

int uld_module_of(uintptr_t addr, const char **path, uintptr_t *offset)
{
    Dwfl_Module *m = module_of(addr);
    if (!m)
        return 0;
    Dwarf_Addr base = 0;
    *path = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, NULL, NULL);
    *offset = addr - (uintptr_t)base;
    return *path != NULL;
}

int uld_symbolize_data(uintptr_t addr, const char **symbol, uintptr_t *offset)
{
    if (!uld_config.symbolize)
        return 0;
    Dwfl_Module *m = module_of(addr);
    if (!m)
        return 0;
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *name = dwfl_module_addrinfo(m, addr, &off, &sym, NULL, NULL, NULL);
    if (!name || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
        return 0;
    if (sym.st_size && off >= sym.st_size)
        return 0;
    *symbol = maybe_demangle(name);
    *offset = (uintptr_t)off;
    return 1;
}


/*
 * dlclose: the session keeps a module once reported (report_modules() only
 * adds), and libdw reads it from its own file mapping, not the process's;
 * but a module first looked at after the unload is no longer in
 * /proc/self/maps and its frames could not be named.  So report it now and
 * open its ELF, symbol table and DWARF.
 */
void uld_symbolize_pin_module(uintptr_t addr)
{
    if (!uld_config.symbolize)
        return;
    Dwfl_Module *m = module_of(addr);
    if (!m)
        return;
    Dwarf_Addr bias;
    dwfl_module_getdwarf(m, &bias); /* the ELF too; NULL without debug info is fine */
    dwfl_module_getsymtab(m);
}
