/*
 * symranges.h - a module's function symbols, read from its file without
 * malloc or libdw (symranges.c).  All of it runs under graph_lock.
 */
#ifndef ULD_SYMRANGES_H
#define ULD_SYMRANGES_H

#include "base/internal.h"

enum { ULD_SYMS_NONE, ULD_SYMS_DYNSYM, ULD_SYMS_SYMTAB };

typedef void (*uld_func_symbol_fn)(const char *name, uintptr_t lo, uintptr_t hi, void *arg);

/* Calls fn for every function symbol of the ELF file at path (loaded at
 * base) from .symtab, else .dynsym; returns which table it read. */
int uld_scan_func_symbols(const char *path, uintptr_t base, uld_func_symbol_fn fn, void *arg)
    ULD_HIDDEN;

/* The loaded object holding addr: its extent, load bias and file. */
struct uld_module_span {
    uintptr_t lo, hi, base;
    const char *path;
};
int uld_module_span_of(uintptr_t addr, struct uld_module_span *out) ULD_HIDDEN;

/* Return addresses: in a function no symbol of its module names (a module
 * without .symtab whose .dynsym does not cover it)?  In one module? */
int uld_addr_unnamed(uintptr_t ret) ULD_HIDDEN;
int uld_same_module(uintptr_t a, uintptr_t b) ULD_HIDDEN;
void uld_symranges_forget_range(uintptr_t lo, uintptr_t hi) ULD_HIDDEN;

#endif
