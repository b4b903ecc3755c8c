/*
 * stack.h - stack traces: capture with libunwind (slow path only), interned
 * in a depot so every edge stores a 32-bit id, and symbolisation at report
 * time (libdw), off every lock path.
 */
#ifndef ULD_STACK_H
#define ULD_STACK_H

#include "base/internal.h"

/* Frames of libulockdep itself, skipped at the top of every capture. */
void uld_stack_set_skip_range(uintptr_t lo, uintptr_t hi) ULD_HIDDEN;
/* Capture the calling thread's stack and intern it; 0 if unavailable.  graph_lock held. */
uint32_t uld_stack_capture(void) ULD_HIDDEN;
/* The same, dropping `skip` more frames (e.g. a signal frame) and keeping at most `max`. */
uint32_t uld_stack_capture_skip(int skip) ULD_HIDDEN;
uint32_t uld_stack_capture_limited(int skip, int max) ULD_HIDDEN;
/* Intern frames the caller assembled.  graph_lock held. */
uint32_t uld_stack_intern(const uintptr_t *frames, int n) ULD_HIDDEN;
/* Start of the function containing return address `ret` (from the unwind
 * tables, no symbols needed), else ret itself. */
uintptr_t uld_function_of(uintptr_t ret) ULD_HIDDEN;
/* Frames of an interned stack (immutable, safe without locks). */
int uld_stack_frames(uint32_t id, const uintptr_t **frames) ULD_HIDDEN;
long uld_stack_count(void) ULD_HIDDEN;
/* Redirect libunwind's validation pipe before its first use (unwind_fds.c);
 * 0 if its import table was not found.  Idempotent, cheap after the first. */
int uld_unwind_fds_ready(void) ULD_HIDDEN;

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
