/*
 * symindex.h - a module's symbol table sorted by address (symindex.c), so
 * that naming a frame or a static lock costs a binary search instead of
 * libdw's scan of the whole table (dwfl_module_addrinfo reads every symbol
 * on each call: 30,000 of them per address in a large C++ server).
 *
 * Same answers as the scans it replaces.  Built at a module's first query,
 * in arena memory; report lock held, as for the rest of symbolize.c.
 */
#ifndef ULD_SYMINDEX_H
#define ULD_SYMINDEX_H

#include "dwload.h"

/* dwfl_module_addrinfo(m, addr, off, sym, NULL, NULL, NULL). */
const char *uld_symindex_addrinfo(Dwfl_Module *m, GElf_Addr addr, GElf_Off *off, GElf_Sym *sym)
    ULD_HIDDEN;

/* The first STT_OBJECT symbol, in table order, whose bytes (at least one)
 * hold addr: is it STB_LOCAL, and the name of the STT_FILE symbol before
 * it (NULL if none).  0: no such symbol. */
int uld_symindex_object(Dwfl_Module *m, GElf_Addr addr, int *local, const char **file)
    ULD_HIDDEN;

/* The same answer by reading the whole table in order: what the index
 * replaces, its fallback, and the unit test's reference. */
int uld_symindex_object_by_scan(Dwfl_Module *m, GElf_Addr addr, int *local, const char **file)
    ULD_HIDDEN;

/* Modules are about to be dropped from the session (their pointers may be
 * reused): forget every index. */
void uld_symindex_forget_all(void) ULD_HIDDEN;

#endif
