/*
 * sym_lib.c - libsym_dbg.so (built with -g) and libsym_nodebug.so (built
 * without -g, then stripped): a frame in a shared library with debug info
 * and one in a library without any.  Used by test_symbolize.c and sym_abba.c.
 */
#include "sym_lib.h"

#ifdef SYM_NODEBUG
__attribute__((noinline)) void *sym_nodebug_call(void *(*fn)(void *), void *arg)
{
    void *r = fn(arg);
    __asm__ volatile("" ::: "memory"); /* keep the call a call, not a tail jump */
    return r;
}
#else
struct sym_shared sym_shared_state = {.name = "sym_lib"};

const int sym_lib_call_line = __LINE__ + 4; /* the line of the call below */
__attribute__((noinline)) void *sym_lib_call(void *(*fn)(void *), void *arg)
{
    void *r;
    r = fn(arg); /* @line:lib_call */
    __asm__ volatile("" ::: "memory");
    return r;
}
#endif
