/*
 * symbolize.c - code and data addresses to names, at report time only:
 * libdw (elfutils) for function, file and line; C++ names demangled with the
 * program's own __cxa_demangle when it has one.  libdw is loaded at the
 * first use (dwload.c); without it, frames are module+offset.  Results are cached for the
 * process lifetime.  Callers hold the report lock, which serialises all of
 * this; libdw may allocate, which is why it never runs on a lock path.
 * In raw mode (uld_symbolize_raw: a report from a fatal signal's handler,
 * which may have interrupted malloc) nothing allocates: code addresses get
 * their module and offset from dl_iterate_phdr, data addresses no names.
 */
#include "symbolize.h"
#include "base/config.h"
#include "dwload.h"
#include "model/modules.h"
#include "base/output.h"
#include "model/stack.h"
#include "symindex.h"
#include "base/uthash_arena.h"

#include <dlfcn.h>
#include <errno.h>
#include <dwarf.h>
#include <link.h>
#include <stdlib.h>
#include <unistd.h>

/* One code address: its inline chain, innermost first, the real function last. */
struct sym_cache {
    uintptr_t addr;
    UT_hash_handle hh;
    int n;
    struct uld_frame_info info[];
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

/* ":.debug:<debug_dir>:/usr/lib/debug" when debug_dir is set, else libdw's
 * default (the same without debug_dir); libdw keeps a pointer to it. */
static char *debuginfo_path;
static char debuginfo_path_mem[ULD_PATH_MAX + 32];

static int find_debuginfo(Dwfl_Module *m, void **user, const char *modname, Dwarf_Addr base,
                          const char *file, const char *debuglink, GElf_Word crc,
                          char **debugfile);

static const Dwfl_Callbacks callbacks = {
    .find_elf = find_elf_mapped,
    /* build-id tree, .gnu_debuglink, dwz alt files, then debuginfod (bounded) */
    .find_debuginfo = find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* ---- debuginfod, bounded ------------------------------------------------------
 * libdw asks debuginfod itself (dwfl_standard_find_debuginfo, last resort)
 * when DEBUGINFOD_URLS is set.  Its client calls a progress function about
 * once a second while it waits; returning nonzero ends the transfer.  That is
 * the time bound: symbolize_timeout seconds per module, and after the first
 * module that runs out, no more queries (a dead server would cost every
 * module the full bound). */
typedef int (*progress_fn)(void *client, long done, long total);
static uint64_t debuginfod_deadline;
static int debuginfod_allowed, debuginfod_timed_out, debuginfod_given_up;
static int local_only;

int uld_symbolize_local_only(int local)
{
    int was = local_only;
    local_only = local;
    return was;
}

static int debuginfod_progress(void *client, long done, long total)
{
    (void)client, (void)done, (void)total;
    if (!debuginfod_allowed || debuginfod_given_up)
        return 1;
    if (uld_now_ns() < debuginfod_deadline)
        return 0;
    debuginfod_timed_out = 1;
    return 1;
}

/* Install the progress function on libdw's client, if it made one. */
static void bound_debuginfod(void)
{
    static int done;
    if (done || local_only)
        return;
    done = 1;
    void *client = dwfl_get_debuginfod_client(dwfl);
    if (!client)
        return; /* DEBUGINFOD_URLS unset, or no libdebuginfod */
    void *so = dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD);
    void (*set)(void *, progress_fn) =
        so ? (void (*)(void *, progress_fn))dlsym(so, "debuginfod_set_progressfn") : NULL;
    if (set)
        set(client, debuginfod_progress);
    else /* cannot bound it: do not let it block a report */
        debuginfod_given_up = 1;
    if (so)
        dlclose(so);
}

static int find_debuginfo(Dwfl_Module *m, void **user, const char *modname, Dwarf_Addr base,
                          const char *file, const char *debuglink, GElf_Word crc,
                          char **debugfile)
{
    int fd;
    if (local_only) { /* libdw keeps the answer: this module never asks debuginfod */
        fd = dwfl_build_id_find_debuginfo(m, user, modname, base, file, debuglink, crc,
                                          debugfile);
    } else {
        bound_debuginfod();
        debuginfod_deadline =
            uld_now_ns() + (uint64_t)uld_config.symbolize_timeout * 1000000000u;
        debuginfod_timed_out = 0;
        fd = dwfl_standard_find_debuginfo(m, user, modname, base, file, debuglink, crc,
                                          debugfile);
        if (debuginfod_timed_out && !debuginfod_given_up) {
            debuginfod_given_up = 1;
            uld_warn("debuginfod gave no debug file for %s within symbolize_timeout=%lds; "
                     "its frames (and those of modules still to come) are shown as "
                     "module+offset",
                     modname ? modname : "?", uld_config.symbolize_timeout);
        }
    }
    /* the descriptor stays open: moved out of the program's way (see find_elf_mapped) */
    return fd < 0 ? fd : uld_fd_move_high(fd);
}

/* Queries to debuginfod happen while a report is written, nowhere else. */
static void allow_debuginfod(int allow)
{
    debuginfod_allowed = allow && uld_config.symbolize_timeout > 0;
}

static void set_debuginfo_path(void)
{
    if (!uld_config.debug_dir[0])
        return;
    uld_snprintf(debuginfo_path_mem, sizeof(debuginfo_path_mem), ":.debug:%s:/usr/lib/debug",
                 uld_config.debug_dir);
    debuginfo_path = debuginfo_path_mem;
}

/*
 * (Re)read /proc/self/maps.  Modules already known stay valid, so cached
 * strings that point into libdw stay valid too; a fork child shares the
 * parent's mappings and keeps using the same session.  After an unload the
 * session is rebuilt (`fresh`): libdw drops the modules no longer mapped,
 * whose cached results were dropped first (catch_up_unloads), and keeps the
 * others.
 */
static int report_modules(int fresh)
{
    if (!dwfl) {
        set_debuginfo_path();
        dwfl = dwfl_begin(&callbacks);
        if (!dwfl)
            return 0;
        /* libdw 0.188 makes its debuginfod client at the first debug file
         * it does not find, servers or not; the client starts libcurl,
         * libssh2 and OpenSSL through their own pthread_once.  Made here,
         * with the session, it never starts inside a later flush from a
         * one-time initialiser; a session begun inside one makes it at
         * the first lookup outside (report.c). */
        bound_debuginfod();
        dwfl_report_begin(dwfl);
    } else if (fresh) {
        uld_symindex_forget_all(); /* modules no longer mapped are freed */
        dwfl_report_begin(dwfl);
    } else {
        dwfl_report_begin_add(dwfl);
    }
    int r = dwfl_linux_proc_report(dwfl, getpid());
    dwfl_report_end(dwfl, NULL, NULL);
    return r == 0;
}

/* ---- unloaded modules ------------------------------------------------------- */

static unsigned unloads_seen; /* records of modules.c handled so far */
static int session_stale;     /* an unloaded module may still be in the session */

/* Drop what was cached about addresses of modules unloaded since last time. */
static void catch_up_unloads(void)
{
    unsigned n = uld_unloaded_count();
    for (; unloads_seen < n; unloads_seen++) {
        const struct uld_unloaded *u = uld_unloaded_get(unloads_seen);
        struct sym_cache *c, *tmp;
        HASH_ITER(hh, cache, c, tmp) {
            uintptr_t a = c->addr & ~(1ull << 63); /* the key's is_return bit */
            if (a >= u->lo && a < u->hi) {
                HASH_DEL(cache, c);
                uld_free(c, sizeof(*c) + sizeof(c->info[0]) * (size_t)c->n);
            }
        }
        session_stale = 1;
    }
}

/* One session per unloaded module that a report names, reading its file. */
struct gone_session {
    unsigned index;
    Dwfl *dwfl;      /* NULL: the file is gone or is another build now */
    Dwfl_Module *mod;
    UT_hash_handle hh;
};
static struct gone_session *gone_sessions;

static int build_id_matches(Dwfl_Module *m, const struct uld_unloaded *u)
{
    const unsigned char *bits;
    GElf_Addr vaddr;
    int n = dwfl_module_build_id(m, &bits, &vaddr);
    if (u->build_id_len == 0)
        return n <= 0;
    return n > 0 && n >= u->build_id_len && !memcmp(bits, u->build_id, (size_t)u->build_id_len);
}

static Dwfl_Module *gone_module(unsigned index)
{
    struct gone_session *g;
    HASH_FIND(hh, gone_sessions, &index, sizeof(index), g);
    if (g)
        return g->mod;
    const struct uld_unloaded *u = uld_unloaded_get(index);
    if (!u || !(g = uld_alloc(sizeof(*g))))
        return NULL;
    g->index = index;
    set_debuginfo_path();
    g->dwfl = dwfl_begin(&callbacks);
    if (g->dwfl) {
        dwfl_report_begin(g->dwfl);
        g->mod = dwfl_report_module(g->dwfl, u->path, u->lo, u->hi);
        dwfl_report_end(g->dwfl, NULL, NULL);
        Dwarf_Addr bias;
        if (g->mod && (!dwfl_module_getelf(g->mod, &bias) || !build_id_matches(g->mod, u)))
            g->mod = NULL; /* never name a frame after another build of the file */
    }
    HASH_ADD(hh, gone_sessions, index, sizeof(g->index), g);
    return g->mod;
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

_Atomic int uld_symbolize_raw;

static int use_libdw(void)
{
    return uld_config.symbolize && !atomic_load_explicit(&uld_symbolize_raw, memory_order_relaxed);
}

struct raw_module {
    uintptr_t addr, offset;
    const char *path;
};

static int raw_module_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct raw_module *rm = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && rm->addr >= lo && rm->addr - lo < ph->p_memsz) {
            rm->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name
                                                             : program_invocation_name;
            rm->offset = rm->addr - info->dlpi_addr;
            return 1;
        }
    }
    return 0;
}

/* Module and offset without libdw or malloc (dl_iterate_phdr takes only the
 * loader's lock, as libunwind does in handlers). */
static int raw_module_of(uintptr_t addr, const char **path, uintptr_t *offset)
{
    struct raw_module rm = {addr, 0, NULL};
    if (!dl_iterate_phdr(raw_module_cb, &rm))
        return 0;
    *path = rm.path;
    *offset = rm.offset;
    return 1;
}

/*
 * The module of a code or data address.  An unloaded address (modules.h)
 * is looked up in its unloaded module's own session and *addr becomes the
 * address it had there.
 */
static Dwfl_Module *module_of(uintptr_t *addr)
{
    if (!uld_dw_load())
        return NULL;
    catch_up_unloads();
    if (uld_addr_is_unloaded(*addr)) {
        unsigned index = uld_addr_unload_index(*addr);
        *addr = uld_addr_real(*addr);
        return gone_module(index);
    }
    if ((!dwfl || session_stale) && !report_modules(session_stale))
        return NULL;
    session_stale = 0;
    Dwfl_Module *m = dwfl_addrmodule(dwfl, *addr);
    if (!m && report_modules(0)) /* loaded since we last looked (dlopen) */
        m = dwfl_addrmodule(dwfl, *addr);
    if (!m) {
        /* Modules read from /proc/self/maps cover their file-backed pages
         * only, not the anonymous tail of .bss where static locks live. */
        struct segment_search s = {*addr, NULL};
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

/* ---- DWARF: compile unit, line, inline chain -------------------------------- */

/*
 * The CU DIE whose code contains pc (module address).  libdwfl (0.188) finds
 * CUs through .debug_aranges only, and lets each arange run to the start of
 * the next: an address no CU covers (_start, a PLT stub, a clang CU, which
 * has no .debug_aranges) is given to the CU before it.  So check its answer
 * and otherwise ask each CU for its own ranges.
 */
static Dwarf_Die *cu_of(Dwfl_Module *m, Dwarf_Addr pc, Dwarf_Die *mem, Dwarf_Addr *bias)
{
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, bias);
    if (cu && dwarf_haspc(cu, pc - *bias) == 1)
        return cu;
    cu = NULL;
    while ((cu = dwfl_module_nextcu(m, cu, bias)) != NULL)
        if (dwarf_haspc(cu, pc - *bias) == 1) {
            *mem = *cu;
            return mem;
        }
    return NULL;
}

static int is_function_tag(int tag)
{
    return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* Does a compiled CU describe its functions (assembler CUs do not)? */
static int cu_has_functions(Dwarf_Die *cu)
{
    Dwarf_Die child;
    if (dwarf_child(cu, &child) != 0)
        return 0;
    do
        if (dwarf_tag(&child) == DW_TAG_subprogram)
            return 1;
    while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* A function's name as the debuggers print it: linkage name demangled, else DW_AT_name. */
static const char *die_function_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
    if (!n)
        n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
    return n ? maybe_demangle(n) : dwarf_diename(die);
}

/* The call site an inlined_subroutine DIE records: its caller's file:line. */
static void call_site(Dwarf_Die *inl, struct uld_frame_info *out)
{
    Dwarf_Attribute attr;
    Dwarf_Word line = 0, file = 0;
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t nfiles;
    if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &attr), &line) == 0 &&
        dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &attr), &file) == 0 &&
        dwarf_diecu(inl, &cu, NULL, NULL) && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 &&
        file < nfiles) {
        out->file = dwarf_filesrc(files, file, NULL, NULL);
        out->line = out->file ? (int)line : 0;
    }
}

/* The line-table row of pc: file and line, unless pc is past a sequence's end. */
static void table_line(Dwarf_Die *cu, Dwarf_Addr pc, struct uld_frame_info *out)
{
    Dwarf_Line *row = dwarf_getsrc_die(cu, pc);
    int lineno = 0;
    const char *file = row ? dwarf_linesrc(row, NULL, NULL) : NULL;
    if (file && dwarf_lineno(row, &lineno) == 0 && lineno > 0) {
        out->file = file;
        out->line = lineno;
    }
}

#define MAX_SCOPE_FUNCTIONS 64

/*
 * The inline chain of pc (module address), innermost first, as
 * `eu-addr2line -i` prints it: out[0] has the line-table position, each
 * later entry the call site recorded by the inlined body before it; the last
 * entry is the real function, which the caller names from the symbol table.
 * Chains longer than max keep their innermost entries and the real function.
 * A PC that no function of its CU covers (a gap between functions, code the
 * compiler did not describe) gets no line: the previous row's would be a lie.
 * Returns the entry count, at least 1.
 */
static int dwarf_chain(Dwfl_Module *m, uintptr_t pc, struct uld_frame_info *out, int max)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die cumem, *cu = cu_of(m, pc, &cumem, &bias);
    Dwarf_Die *scopes = NULL, *chain = NULL, *fn[MAX_SCOPE_FUNCTIONS];
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
    /* scopes[0] is the innermost scope; its concrete parents (the outer
     * inlined calls, then the function) come from dwarf_getscopes_die() */
    int len = n > 0 ? dwarf_getscopes_die(&scopes[0], &chain) : 0;
    int nf = 0;
    for (int i = 0; i < len && nf < MAX_SCOPE_FUNCTIONS; i++) {
        int tag = dwarf_tag(&chain[i]);
        if (!is_function_tag(tag))
            continue;
        fn[nf++] = &chain[i];
        if (tag == DW_TAG_subprogram)
            break;
    }
    int count = 1;
    if (nf == 0) { /* in no function: only an assembler CU's rows are trusted */
        if (cu && !cu_has_functions(cu))
            table_line(cu, pc - bias, &out[0]);
    } else {
        count = nf < max ? nf : max;
        for (int k = 0; k < count; k++) {
            int j = k < count - 1 ? k : nf - 1; /* the last entry is the real function */
            if (j == 0)
                table_line(cu, pc - bias, &out[k]);
            else
                call_site(fn[j - 1], &out[k]);
            out[k].function = die_function_name(fn[j]);
            out[k].inlined = j < nf - 1;
        }
    }
    free(chain);
    free(scopes);
    return count;
}

/*
 * A code address libdw does not name: without libdw, the loaded module
 * holding it (path and offset); an unloaded address whose file cannot be
 * read (gone, or another build now), or a bare address in a range that
 * was unloaded (and not mapped again): its module and offset, said to be
 * unloaded.  Returns the entry count (1).
 */
static int unloaded_frame(uintptr_t orig, struct uld_frame_info *out)
{
    const struct uld_unloaded *u = uld_addr_is_unloaded(orig)
                                       ? uld_unloaded_get(uld_addr_unload_index(orig))
                                       : NULL;
    if (!u) {
        if (raw_module_of(orig, &out->module, &out->module_offset))
            return 1;
        u = uld_unloaded_covering(orig);
    }
    if (u) {
        out->module = u->path;
        out->module_offset = uld_addr_real(orig) - u->base;
        out->unloaded = 1;
    }
    return 1;
}

/* Module, symbol and DWARF facts of one code address; returns the entry count. */
static int resolve(uintptr_t addr, int is_return, struct uld_frame_info *out, int max)
{
    memset(out, 0, sizeof(*out) * (size_t)max);
    uintptr_t orig = addr;
    Dwfl_Module *m = module_of(&addr); /* addr: the address it had, if unloaded */
    if (!m)
        return unloaded_frame(orig, out);
    uintptr_t lookup = is_return ? addr - 1 : addr;
    int n = dwarf_chain(m, lookup, out, max);
    struct uld_frame_info *real = &out[n - 1];
    Dwarf_Addr base = 0;
    const char *mname = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, NULL, NULL);
    for (int k = 0; k < n; k++) {
        out[k].module = mname;
        out[k].module_offset = addr - (uintptr_t)base;
        out[k].unloaded = uld_addr_is_unloaded(orig);
    }
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *fn = uld_symindex_addrinfo(m, lookup, &off, &sym);
    if (fn) { /* the symbol table's name is qualified and has an offset */
        real->function = maybe_demangle(fn);
        real->fn_offset = (uintptr_t)off + (lookup != addr);
    } else {
        real->function = NULL; /* without an offset a DWARF name would look exact */
    }
    return n;
}

static struct sym_cache *lookup_cached(uintptr_t addr, int is_return)
{
    if (!uld_dw_load())
        return NULL; /* module+offset now; named once libdw is loaded */
    uintptr_t key = addr ^ (is_return ? 1ull << 63 : 0);
    struct sym_cache *c;
    HASH_FIND(hh, cache, &key, sizeof(key), c);
    if (c)
        return c;
    struct uld_frame_info tmp[ULD_MAX_INLINE];
    int n = resolve(addr, is_return, tmp, ULD_MAX_INLINE);
    c = uld_alloc(sizeof(*c) + sizeof(tmp[0]) * (size_t)n);
    if (!c)
        return NULL;
    c->addr = key;
    c->n = n;
    memcpy(c->info, tmp, sizeof(tmp[0]) * (size_t)n);
    HASH_ADD(hh, cache, addr, sizeof(c->addr), c);
    return c;
}

int uld_symbolize_inline(uintptr_t addr, int is_return, struct uld_frame_info *out, int max)
{
    memset(out, 0, sizeof(*out));
    if (uld_symbolize_raw && max >= 1) {
        raw_module_of(addr, &out->module, &out->module_offset);
        return 1;
    }
    if (!uld_config.symbolize || max < 1)
        return 1;
    allow_debuginfod(1);
    struct sym_cache *c = lookup_cached(addr, is_return);
    allow_debuginfod(0);
    if (!c) {
        struct uld_frame_info tmp[ULD_MAX_INLINE]; /* out of memory: the real frame, uncached */
        int n = resolve(addr, is_return, tmp, ULD_MAX_INLINE);
        *out = tmp[n - 1];
        return 1;
    }
    int n = c->n < max ? c->n : max;
    memcpy(out, c->info, sizeof(*out) * (size_t)(n - 1)); /* the innermost ones */
    out[n - 1] = c->info[c->n - 1];                          /* and the real function */
    return n;
}

void uld_symbolize(uintptr_t addr, int is_return, struct uld_frame_info *out)
{
    struct uld_frame_info chain[ULD_MAX_INLINE];
    int n = uld_symbolize_inline(addr, is_return, chain, ULD_MAX_INLINE);
    *out = chain[n - 1];
}

int uld_module_of(uintptr_t addr, const char **path, uintptr_t *offset)
{
    if (uld_symbolize_raw)
        return raw_module_of(addr, path, offset);
    uintptr_t orig = addr;
    Dwfl_Module *m = uld_config.symbolize ? module_of(&addr) : NULL;
    if (!m) {
        struct uld_frame_info fi = {0};
        unloaded_frame(orig, &fi);
        *path = fi.module;
        *offset = fi.module_offset;
        return fi.module != NULL;
    }
    Dwarf_Addr base = 0;
    *path = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, NULL, NULL);
    *offset = addr - (uintptr_t)base;
    return *path != NULL;
}

int uld_symbolize_data(uintptr_t addr, const char **symbol, uintptr_t *offset)
{
    if (!use_libdw())
        return 0;
    Dwfl_Module *m = module_of(&addr);
    if (!m)
        return 0;
    GElf_Off off = 0;
    GElf_Sym sym;
    allow_debuginfod(1); /* the symbol table may be in a debug file */
    const char *name = uld_symindex_addrinfo(m, addr, &off, &sym);
    allow_debuginfod(0);
    if (!name || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
        return 0;
    if (sym.st_size && off >= sym.st_size)
        return 0;
    *symbol = maybe_demangle(name);
    *offset = (uintptr_t)off;
    return 1;
}

int uld_symbolize_data_scope(uintptr_t addr, int *local, const char **file)
{
    Dwfl_Module *m = use_libdw() ? module_of(&addr) : NULL;
    return m && uld_symindex_object(m, addr, local, file);
}

int uld_symbolize_decl_line(uintptr_t addr, int is_return)
{
    Dwfl_Module *m = use_libdw() ? module_of(&addr) : NULL;
    uintptr_t pc = is_return ? addr - 1 : addr;
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = m ? dwfl_module_addrdie(m, pc, &bias) : NULL;
    Dwarf_Die *scopes = NULL;
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0, line = 0;
    for (int i = 0; i < n; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
            if (dwarf_decl_line(&scopes[i], &line) != 0)
                line = 0;
            break;
        }
    free(scopes);
    return line;
}
