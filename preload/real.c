/*
 * real.c - resolution of the real functions.  dlsym may allocate and free,
 * which re-enters our free(); the resolving flag tells it to stand back.
 */
#include "real.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>

struct uld_real_table uld_real;
static __thread int resolving_here __attribute__((tls_model("initial-exec")));

int uld_real_resolving(void)
{
    return resolving_here;
}

static void *must(const char *name, void *p)
{
    if (!p) {
        static const char msg[] = "ulockdep: cannot resolve a real function: ";
        (void)!write(2, msg, sizeof(msg) - 1);
        (void)!write(2, name, __builtin_strlen(name));
        (void)!write(2, "\n", 1);
    }
    return p;
}

/*
 * The allocator's functions pair with whichever malloc the process uses.
 * A program that defines malloc & co. itself (glibc's "Replacing malloc",
 * a statically linked jemalloc) comes before us in the lookup order: its
 * functions are then the real ones, for the wrappers reached from our own
 * code (-Bsymbolic binds it to them: symbolize.c frees what libdw
 * allocated) as much as for anyone's.  Otherwise the next one after us.
 */
static void *allocator_fn(const char *name, void *ours)
{
    /* the global order from the program down; RTLD_DEFAULT would search
     * this -Bsymbolic library first */
    void *program = dlopen(NULL, RTLD_LAZY | RTLD_NOLOAD);
    /* not closed: the main program is never unloaded, and dlclose is our
     * own wrapper, whose real function may not be resolved yet */
    void *first = program ? dlsym(program, name) : NULL;
    /* A non-PIE program that takes free's address exports a PLT stub as
     * its canonical address (an undefined symbol with a value): that is a
     * way back into our own wrapper, not a definition. */
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (first && (!dladdr1(first, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
                  sym->st_shndx == SHN_UNDEF))
        first = NULL;
    return first && first != ours ? first : dlsym(RTLD_NEXT, name);
}

void uld_real_resolve(void)
{
    if (resolving_here)
        return;
    resolving_here = 1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* sigblock... types */
#define ULD_RESOLVE(name)                                                     \
    if (!uld_real.name)                                                       \
        uld_real.name = (__typeof__(name) *)must(#name, dlsym(RTLD_NEXT, #name));
    if (!uld_real.free)
        uld_real.free = (__typeof__(free) *)must("free", allocator_fn("free", (void *)free));
    if (!uld_real.realloc)
        uld_real.realloc = (__typeof__(realloc) *)must("realloc", allocator_fn("realloc", (void *)realloc));
    ULD_REAL_FUNCS(ULD_RESOLVE)
#undef ULD_RESOLVE
#pragma GCC diagnostic pop
#define ULD_RESOLVE_COND(name, type, field)                                   \
    uld_real.field##_232 = (type *)must(#name "@GLIBC_2.3.2",                    \
                                        dlvsym(RTLD_NEXT, #name, "GLIBC_2.3.2")); \
    /* the pre-2.3.2 ABI: only old binaries use it, so it may be absent */      \
    uld_real.field##_225 = (type *)dlvsym(RTLD_NEXT, #name, "GLIBC_2.2.5");
    ULD_REAL_COND_FUNCS(ULD_RESOLVE_COND)
#undef ULD_RESOLVE_COND
    resolving_here = 0;
}
