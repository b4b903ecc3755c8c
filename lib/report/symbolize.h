/*
 * symbolize.h - names for code and data addresses at report time (libdw,
 * loaded at the first report: dwload.c), off every lock path.
 */
#ifndef ULD_SYMBOLIZE_H
#define ULD_SYMBOLIZE_H

#include "base/internal.h"

struct uld_frame_info {
    const char *function;   /* NULL when unknown */
    uintptr_t fn_offset;    /* address - function start */
    const char *file;       /* NULL when unknown */
    int line;
    const char *module;     /* object path, NULL when unknown */
    uintptr_t module_offset;
    int inlined;            /* code of `function` inlined into the next entry's */
    int unloaded;           /* its module was unloaded (dlclose) since */
};

/* Entries of one code address's inline chain kept at most (the real function included). */
#define ULD_MAX_INLINE 8

/* While set, libdw is not loaded (dwload.c): the kill-time report runs in a
 * signal handler, where dlopen could deadlock on the loader's lock held by
 * the code it interrupted, and the process must still end. */
void uld_dw_forbid_load(int forbid) ULD_HIDDEN;
/* While set, separate debug files come from the local build-id tree only,
 * never debuginfod, whose client starts libcurl and the TLS libraries
 * through their own one-time initialisers (report.c). */
int uld_symbolize_local_only(int local) ULD_HIDDEN; /* returns the previous setting */

/* Describe a code address; `is_return` looks up the call instruction.  Report lock held.
 * This is the real (outermost) function: its symbol, offset and the line in
 * it, where an inlined body was called when the address is in one. */
void uld_symbolize(uintptr_t addr, int is_return, struct uld_frame_info *out) ULD_HIDDEN;
/* The same expanded into its inline chain, innermost first, as addr2line -i:
 * out[0..n-2] are inlined bodies (inlined = 1, no offset), out[n-1] is what
 * uld_symbolize() gives.  Returns n, 1 <= n <= max.  Report lock held. */
int uld_symbolize_inline(uintptr_t addr, int is_return, struct uld_frame_info *out, int max)
    ULD_HIDDEN;
/* Raw mode: name code by module+offset only, data not at all (no libdw, no
 * malloc: reports printed from a fatal signal's handler). */
extern _Atomic int uld_symbolize_raw ULD_HIDDEN;
/* The loaded object containing addr: its path and addr's offset from its base. */
int uld_module_of(uintptr_t addr, const char **path, uintptr_t *offset) ULD_HIDDEN;
/* Name of the static object containing addr ("lock_a", offset 0x28); 0 if none. */
int uld_symbolize_data(uintptr_t addr, const char **symbol, uintptr_t *offset) ULD_HIDDEN;
/* The data symbol containing addr: is it file-local, and its source file
 * (the symbol table's preceding STT_FILE entry; NULL if none).  0: no symbol. */
int uld_symbolize_data_scope(uintptr_t addr, int *local, const char **file) ULD_HIDDEN;
/* First source line of the function containing a code address (DW_AT_decl_line
 * of the enclosing out-of-line function), 0 when unknown. */
int uld_symbolize_decl_line(uintptr_t addr, int is_return) ULD_HIDDEN;

#endif
