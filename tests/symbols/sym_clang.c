/*
 * sym_clang.c - built by clang (DWARF 5, no .debug_aranges) when clang is
 * installed, and linked into test_symbolize: its frames must still get
 * their file:line (libdw 0.188 finds CUs through .debug_aranges only).
 */
#include <stddef.h>

int sym_clang_line;

__attribute__((noinline)) void *sym_clang_frame(void *(*fn)(void *))
{
    void *r = fn(NULL); sym_clang_line = __LINE__;
    __asm__ volatile("" ::: "memory");
    return r;
}
