/*
 * unwind_fds.c - libunwind without a descriptor.
 *
 * libunwind 1.6 checks that an address is readable before its fallback
 * unwinders (and, for every step, its conservative checks) read it, by
 * writing one byte from it into a pipe: write() fails with EFAULT where a
 * read would crash.  It creates that pipe at its initialisation (pipe2, the
 * two lowest free descriptors of the program) and re-creates it whenever a
 * read from it fails.  Inside a host program that shifts every descriptor
 * the program opens by two, and once the program has closed the pipe
 * (close_range, daemons closing everything above stderr), libunwind closes
 * the stale numbers - now the program's socket or files - and writes into
 * them (libunwind issues #274, #291).
 *
 * So before libunwind first runs, two entries of its own import table are
 * redirected, and nothing else in the process changes: its pipe2() fails
 * (EMFILE), so its pipe stays {-1, -1} and it never closes a descriptor;
 * its write to descriptor -1 (a raw syscall(SYS_write)), which is only ever
 * that validation, checks
 * the address with a system call that reads user memory and needs no
 * descriptor.  rt_sigprocmask with an invalid `how` copies the new mask in
 * (EFAULT when unreadable) and then fails with EINVAL, changing nothing.
 * Called before every use of libunwind; the first call does the work.  If
 * the table cannot be found (a libunwind linked some other way), libunwind
 * keeps its pipe, as before.
 */
#define UNW_LOCAL_ONLY
#include "stack.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <libunwind.h>
#include <link.h>
#include <string.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int refuse_pipe2(int fds[2], int flags)
{
    (void)fds;
    (void)flags;
    errno = EMFILE;
    return -1;
}

/* libunwind validates with syscall(SYS_write, pipe[1], addr, 1); its other
 * system calls pass through (the six argument registers, as syscall() does). */
static long validating_syscall(long nr, ...)
{
    va_list ap;
    long a[6];
    va_start(ap, nr);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (nr != SYS_write || (int)a[0] != -1) /* an int argument: upper half undefined */
        return syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (syscall(SYS_rt_sigprocmask, -1, a[1], NULL, 8) != 0 && errno == EFAULT)
        return -1; /* unreadable: libunwind treats the address as invalid */
    return 1;
}

struct import_patch {
    const char *name;
    void *replacement;
};

static const struct import_patch patches[] = {
    {"pipe2", (void *)refuse_pipe2},
    {"syscall", (void *)validating_syscall},
};

struct patch_job {
    uintptr_t probe; /* an address inside libunwind */
    int done;        /* slots rewritten */
};

static uintptr_t dyn_ptr(const struct dl_phdr_info *info, uintptr_t v)
{
    return v < info->dlpi_addr ? v + info->dlpi_addr : v; /* ld.so relocates most */
}

/* Is the slot in the object's RELRO range (read-only after relocation)? */
static int in_relro(const struct dl_phdr_info *info, uintptr_t slot)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_GNU_RELRO && slot >= start && slot < start + ph->p_memsz)
            return 1;
    }
    return 0;
}

static int write_slot(const struct dl_phdr_info *info, uintptr_t slot, void *value)
{
    long page = sysconf(_SC_PAGESIZE);
    void *start = (void *)(slot & ~(uintptr_t)(page - 1));
    int relro = in_relro(info, slot);
    if (relro && mprotect(start, (size_t)page, PROT_READ | PROT_WRITE) != 0)
        return 0;
    __atomic_store_n((void **)slot, value, __ATOMIC_RELEASE);
    if (relro)
        mprotect(start, (size_t)page, PROT_READ);
    return 1;
}

static int patch_relocs(const struct dl_phdr_info *info, const ElfW(Rela) *rel, size_t size,
                        const ElfW(Sym) *symtab, const char *strtab)
{
    int done = 0;
    for (size_t i = 0; i < size / sizeof(*rel); i++) {
        unsigned type = ELF64_R_TYPE(rel[i].r_info);
        if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
            continue;
        const char *name = strtab + symtab[ELF64_R_SYM(rel[i].r_info)].st_name;
        for (size_t k = 0; k < ULD_ARRAY_SIZE(patches); k++)
            if (!strcmp(name, patches[k].name)) {
                done += write_slot(info, info->dlpi_addr + rel[i].r_offset,
                                   patches[k].replacement);
            }
    }
    return done;
}

static int contains(const struct dl_phdr_info *info, uintptr_t addr)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= start && addr < start + ph->p_memsz)
            return 1;
    }
    return 0;
}

static int patch_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct patch_job *job = arg;
    (void)size;
    if (!contains(info, job->probe))
        return 0;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    uintptr_t jmprel = 0, rela = 0, symtab = 0, strtab = 0;
    size_t jmprel_size = 0, rela_size = 0;
    for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_JMPREL: jmprel = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmprel_size = dyn->d_un.d_val; break;
        case DT_RELA: rela = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_RELASZ: rela_size = dyn->d_un.d_val; break;
        case DT_SYMTAB: symtab = dyn_ptr(info, dyn->d_un.d_ptr); break;
        case DT_STRTAB: strtab = dyn_ptr(info, dyn->d_un.d_ptr); break;
        }
    }
    if (!symtab || !strtab)
        return 1;
    const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab;
    if (jmprel)
        job->done += patch_relocs(info, (const ElfW(Rela) *)jmprel, jmprel_size, sym,
                                  (const char *)strtab);
    if (rela)
        job->done += patch_relocs(info, (const ElfW(Rela) *)rela, rela_size, sym,
                                  (const char *)strtab);
    return 1;
}

static _Atomic int unwind_fds_state; /* 0: not yet, 1: redirected, -1: not found */

int uld_unwind_fds_ready(void)
{
    int s = atomic_load_explicit(&unwind_fds_state, memory_order_acquire);
    if (s)
        return s > 0;
    struct patch_job job = {.probe = (uintptr_t)&unw_backtrace};
    dl_iterate_phdr(patch_object, &job);
    s = job.done >= 2 ? 1 : -1;
    atomic_store_explicit(&unwind_fds_state, s, memory_order_release);
    return s > 0;
}
