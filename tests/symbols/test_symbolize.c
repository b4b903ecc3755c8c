/*
 * test_symbolize.c - the function, file and line of every kind of frame,
 * checked against the lines they were captured on: a function of the
 * program, an inlined body (innermost first, then its caller), a shared
 * library with debug info, one without, a PLT stub, _start, code in a
 * compiled file that no function covers (top-level asm), and a clang
 * (DWARF 5, no .debug_aranges) object.  A PC outside every function gets
 * no line: the line of the previous row would be wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <gelf.h>
#include <link.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/config.h"
#include "model/stack.h"
#include "report/symbolize.h"
#include "sym_lib.h"

#define BARRIER() __asm__ volatile("" ::: "memory")

extern char _start[];
void *sym_clang_frame(void *(*fn)(void *)) __attribute__((weak));
extern int sym_clang_line __attribute__((weak));

static int line_prog, line_inl_body, line_inl_caller;

static __attribute__((noinline)) void *ret_addr(void *unused)
{
    (void)unused;
    return __builtin_return_address(0);
}

/* Code inside this file's .text range (built with -fno-toplevel-reorder, so
 * it sits right after ret_addr) that no DWARF function and no line row
 * covers: the row before it is ret_addr's last line, which is not its line. */
__asm__(".text\n.globl sym_asm_gap\n.type sym_asm_gap,@function\nsym_asm_gap:\n"
        "  nop\n  nop\n  nop\n  ret\n.size sym_asm_gap, .-sym_asm_gap\n");
void sym_asm_gap(void);

static __attribute__((noinline)) void *in_program(void)
{
    void *r = ret_addr(NULL); line_prog = __LINE__;
    BARRIER();
    return r;
}

static inline __attribute__((always_inline)) void *inl_body(void)
{
    void *r = ret_addr(NULL); line_inl_body = __LINE__;
    BARRIER();
    return r;
}

static __attribute__((noinline)) void *in_inline_caller(void)
{
    void *r = inl_body(); line_inl_caller = __LINE__;
    BARRIER();
    return r;
}

static const char *base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "(null)";
}

static int sym(void *addr, int is_return, struct uld_frame_info *chain)
{
    return uld_symbolize_inline((uintptr_t)addr, is_return, chain, ULD_MAX_INLINE);
}

static void program_function(void **state)
{
    (void)state;
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym(in_program(), 1, c), 1);
    assert_string_equal(c[0].function, "in_program");
    assert_string_equal(base(c[0].file), "test_symbolize.c");
    assert_int_equal(c[0].line, line_prog);
    assert_int_equal(c[0].inlined, 0);
}

static void inlined_chain(void **state)
{
    (void)state;
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym(in_inline_caller(), 1, c), 2);
    assert_string_equal(c[0].function, "inl_body");
    assert_int_equal(c[0].line, line_inl_body);
    assert_int_equal(c[0].inlined, 1);
    assert_string_equal(c[1].function, "in_inline_caller");
    assert_string_equal(base(c[1].file), "test_symbolize.c");
    assert_int_equal(c[1].line, line_inl_caller);
    assert_int_equal(c[1].inlined, 0);
    /* the one-frame view is the real function at the inlined call */
    struct uld_frame_info real;
    uld_symbolize((uintptr_t)in_inline_caller(), 1, &real);
    assert_string_equal(real.function, "in_inline_caller");
    assert_int_equal(real.line, line_inl_caller);
}

static void library_with_debug_info(void **state)
{
    (void)state;
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym(sym_lib_call(ret_addr, NULL), 1, c), 1);
    assert_string_equal(c[0].function, "sym_lib_call");
    assert_string_equal(base(c[0].file), "sym_lib.c");
    assert_int_equal(c[0].line, sym_lib_call_line);
    assert_string_equal(base(c[0].module), "libsym_dbg.so");
}

static void library_without_debug_info(void **state)
{
    (void)state;
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym(sym_nodebug_call(ret_addr, NULL), 1, c), 1);
    assert_string_equal(c[0].function, "sym_nodebug_call"); /* from .dynsym */
    assert_null(c[0].file);
    assert_int_equal(c[0].line, 0);
    assert_string_equal(base(c[0].module), "libsym_nodebug.so");
}

/* The address of the first PLT entry of this program (after the resolver stub). */
static uintptr_t plt_entry(void)
{
    uintptr_t found = 0;
    int fd = open("/proc/self/exe", O_RDONLY);
    elf_version(EV_CURRENT);
    Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    size_t shstr;
    Elf_Scn *scn = NULL;
    if (e && elf_getshdrstrndx(e, &shstr) == 0)
        while ((scn = elf_nextscn(e, scn)) != NULL) {
            GElf_Shdr sh;
            const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;
            if (name && !strcmp(name, ".plt") && sh.sh_size > 16)
                found = (uintptr_t)sh.sh_addr + 16;
        }
    if (e)
        elf_end(e);
    if (fd >= 0)
        close(fd);
    return found ? found + _r_debug.r_map->l_addr : 0; /* the program is the first link map */
}

static void plt_stub(void **state)
{
    (void)state;
    uintptr_t plt = plt_entry();
    if (!plt)
        skip();
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym((void *)plt, 0, c), 1);
    assert_null(c[0].file);
    assert_int_equal(c[0].line, 0);
    assert_non_null(c[0].module);
}

static void start_has_no_line(void **state)
{
    (void)state;
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym(_start + 0x21, 1, c), 1);
    assert_string_equal(c[0].function, "_start");
    assert_null(c[0].file);
    assert_int_equal(c[0].line, 0);
}

static void gap_has_no_line(void **state)
{
    (void)state;
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym((char *)(uintptr_t)sym_asm_gap + 2, 0, c), 1);
    assert_string_equal(c[0].function, "sym_asm_gap");
    assert_null(c[0].file);
    assert_int_equal(c[0].line, 0);
}

static void clang_dwarf5(void **state)
{
    (void)state;
    if (!sym_clang_frame)
        skip(); /* clang not installed when this was built */
    struct uld_frame_info c[ULD_MAX_INLINE];
    assert_int_equal(sym(sym_clang_frame(ret_addr), 1, c), 1);
    assert_non_null(c[0].function);
    assert_string_equal(c[0].function, "sym_clang_frame");
    assert_string_equal(base(c[0].file), "sym_clang.c");
    assert_int_equal(c[0].line, sym_clang_line);
}

int main(void)
{
    uld_config_parse(NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(program_function),  cmocka_unit_test(inlined_chain),
        cmocka_unit_test(library_with_debug_info), cmocka_unit_test(library_without_debug_info),
        cmocka_unit_test(plt_stub),          cmocka_unit_test(start_has_no_line),
        cmocka_unit_test(gap_has_no_line),   cmocka_unit_test(clang_dwarf5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
