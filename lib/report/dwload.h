/*
 * dwload.h - libdw and libelf, loaded when a report first needs symbols
 * (dwload.c), not linked: a host process that reports nothing never maps
 * them nor what they pull in (libz, libbz2, liblzma, and, with
 * DEBUGINFOD_URLS set, libdebuginfod, libcurl, its TLS and SSH libraries,
 * whose init-time locks would enter the host's graphs).
 *
 * symbolize.c includes this after the elfutils headers; each libdw/libelf
 * function it calls is a pointer of the table, resolved by uld_dw_load().
 * Report lock held for all of it.
 */
#ifndef ULD_DWLOAD_H
#define ULD_DWLOAD_H

#include "base/internal.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#define ULD_DW_FUNCTIONS(X)                                                                     \
    X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_child) X(dwarf_decl_line) X(dwarf_diecu)      \
    X(dwarf_diename) X(dwarf_filesrc) X(dwarf_formstring) X(dwarf_formudata)                    \
    X(dwarf_getscopes) X(dwarf_getscopes_die) X(dwarf_getsrc_die) X(dwarf_getsrcfiles)          \
    X(dwarf_haspc) X(dwarf_lineno) X(dwarf_linesrc) X(dwarf_siblingof) X(dwarf_tag)             \
    X(dwfl_addrmodule) X(dwfl_begin) X(dwfl_build_id_find_debuginfo)                            \
    X(dwfl_get_debuginfod_client) X(dwfl_getmodules)                                            \
    X(dwfl_linux_proc_find_elf) X(dwfl_linux_proc_report) X(dwfl_module_addrdie)                \
    X(dwfl_module_addrinfo) X(dwfl_module_build_id) X(dwfl_module_getelf)                       \
    X(dwfl_module_getsym_info) X(dwfl_module_getsymtab) X(dwfl_module_getsymtab_first_global)  \
    X(dwfl_module_info)                                                                         \
    X(dwfl_module_nextcu) X(dwfl_report_begin) X(dwfl_report_begin_add) X(dwfl_report_end)      \
    X(dwfl_report_module) X(dwfl_standard_find_debuginfo) X(elf_begin) X(elf_cntl) X(elf_end)   \
    X(elf_getphdrnum) X(gelf_getphdr)

struct uld_dw {
#define ULD_DW_MEMBER(name) __typeof__(name) *name;
    ULD_DW_FUNCTIONS(ULD_DW_MEMBER)
#undef ULD_DW_MEMBER
};

extern struct uld_dw uld_dw ULD_HIDDEN;

/* Load libdw (once; not from a signal handler, not while forbidden, then
 * 0 and a later call tries again).  1: the table is complete. */
int uld_dw_load(void) ULD_HIDDEN;

#ifndef ULD_DWLOAD_IMPL
/* Calls through the table (only after uld_dw_load() returned 1). */
#define dwarf_attr (*uld_dw.dwarf_attr)
#define dwarf_attr_integrate (*uld_dw.dwarf_attr_integrate)
#define dwarf_child (*uld_dw.dwarf_child)
#define dwarf_decl_line (*uld_dw.dwarf_decl_line)
#define dwarf_diecu (*uld_dw.dwarf_diecu)
#define dwarf_diename (*uld_dw.dwarf_diename)
#define dwarf_filesrc (*uld_dw.dwarf_filesrc)
#define dwarf_formstring (*uld_dw.dwarf_formstring)
#define dwarf_formudata (*uld_dw.dwarf_formudata)
#define dwarf_getscopes (*uld_dw.dwarf_getscopes)
#define dwarf_getscopes_die (*uld_dw.dwarf_getscopes_die)
#define dwarf_getsrc_die (*uld_dw.dwarf_getsrc_die)
#define dwarf_getsrcfiles (*uld_dw.dwarf_getsrcfiles)
#define dwarf_haspc (*uld_dw.dwarf_haspc)
#define dwarf_lineno (*uld_dw.dwarf_lineno)
#define dwarf_linesrc (*uld_dw.dwarf_linesrc)
#define dwarf_siblingof (*uld_dw.dwarf_siblingof)
#define dwarf_tag (*uld_dw.dwarf_tag)
#define dwfl_addrmodule (*uld_dw.dwfl_addrmodule)
#define dwfl_begin (*uld_dw.dwfl_begin)
#define dwfl_build_id_find_debuginfo (*uld_dw.dwfl_build_id_find_debuginfo)
#define dwfl_get_debuginfod_client (*uld_dw.dwfl_get_debuginfod_client)
#define dwfl_getmodules (*uld_dw.dwfl_getmodules)
#define dwfl_linux_proc_find_elf (*uld_dw.dwfl_linux_proc_find_elf)
#define dwfl_linux_proc_report (*uld_dw.dwfl_linux_proc_report)
#define dwfl_module_addrdie (*uld_dw.dwfl_module_addrdie)
#define dwfl_module_addrinfo (*uld_dw.dwfl_module_addrinfo)
#define dwfl_module_build_id (*uld_dw.dwfl_module_build_id)
#define dwfl_module_getelf (*uld_dw.dwfl_module_getelf)
#define dwfl_module_getsym_info (*uld_dw.dwfl_module_getsym_info)
#define dwfl_module_getsymtab (*uld_dw.dwfl_module_getsymtab)
#define dwfl_module_getsymtab_first_global (*uld_dw.dwfl_module_getsymtab_first_global)
#define dwfl_module_info (*uld_dw.dwfl_module_info)
#define dwfl_module_nextcu (*uld_dw.dwfl_module_nextcu)
#define dwfl_report_begin (*uld_dw.dwfl_report_begin)
#define dwfl_report_begin_add (*uld_dw.dwfl_report_begin_add)
#define dwfl_report_end (*uld_dw.dwfl_report_end)
#define dwfl_report_module (*uld_dw.dwfl_report_module)
#define dwfl_standard_find_debuginfo (*uld_dw.dwfl_standard_find_debuginfo)
#define elf_begin (*uld_dw.elf_begin)
#define elf_cntl (*uld_dw.elf_cntl)
#define elf_end (*uld_dw.elf_end)
#define elf_getphdrnum (*uld_dw.elf_getphdrnum)
#define gelf_getphdr (*uld_dw.gelf_getphdr)
#endif

#endif
