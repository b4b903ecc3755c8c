/*
 * test_symindex.c - names from the sorted symbol index (lib/report/symindex.c),
 * which answers for libdw's scans of a module's whole symbol table:
 *  - two file-local locks with one name in two files are each named with
 *    their own file (the STT_FILE symbol before each);
 *  - where symbols share an address, the global beats the weak and the
 *    local; inside a symbol that encloses another, the inner one (higher
 *    start) names the addresses it holds, the outer one the rest;
 *  - over this program's and libc's whole tables (libc's is the large
 *    one: thousands of symbols, with libc6-dbg its debug file's), every
 *    answer is dwfl_module_addrinfo's and every object scope the one a
 *    scan of the table in order gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <link.h>
#include <pthread.h>
#include <unistd.h>

#define ULD_DWLOAD_IMPL /* this test calls libdw directly, as its oracle */
#include "base/config.h"
#include "model/stack.h"
#include "report/symbolize.h"
#include "report/symindex.h"

pthread_mutex_t *symidx_other_lock(void);
void *symidx_other_call(void *(*fn)(void));

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* Objects sharing an address (a local, a weak and a global symbol), and
 * one that encloses another. */
__asm__(".data\n.balign 16\n"
        "symidx_local:\n.type symidx_local,@object\n.size symidx_local,16\n"
        ".weak symidx_weak\n.type symidx_weak,@object\n.size symidx_weak,16\n"
        ".globl symidx_global\n.type symidx_global,@object\n.size symidx_global,16\n"
        "symidx_weak:\nsymidx_global:\n.zero 16\n"
        ".globl symidx_outer\n.type symidx_outer,@object\n.size symidx_outer,64\n"
        "symidx_outer:\n.zero 16\n"
        ".globl symidx_inner\n.type symidx_inner,@object\n.size symidx_inner,8\n"
        "symidx_inner:\n.zero 48\n.text\n");
extern char symidx_global[], symidx_outer[], symidx_inner[];

static const char *base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "(null)";
}

static void expect_data(const void *addr, const char *name, uintptr_t offset)
{
    const char *sym = NULL;
    uintptr_t off = ~(uintptr_t)0;
    assert_true(uld_symbolize_data((uintptr_t)addr, &sym, &off));
    assert_string_equal(sym, name);
    assert_int_equal(off, offset);
}

static void same_name_statics_keep_their_files(void **state)
{
    (void)state;
    pthread_mutex_t *other = symidx_other_lock();
    int local = 0;
    const char *file = NULL;
    expect_data(&table_lock, "table_lock", 0);
    assert_true(uld_symbolize_data_scope((uintptr_t)&table_lock, &local, &file));
    assert_true(local);
    assert_string_equal(base(file), "test_symindex.c");
    expect_data((char *)other + 8, "table_lock", 8);
    assert_true(uld_symbolize_data_scope((uintptr_t)other + 8, &local, &file));
    assert_true(local);
    assert_string_equal(base(file), "symidx_other.c");
}

static __attribute__((noinline)) void *ret_addr(void)
{
    return __builtin_return_address(0);
}

static void frame_in_second_file(void **state)
{
    (void)state;
    struct uld_frame_info fi;
    uld_symbolize((uintptr_t)symidx_other_call(ret_addr), 1, &fi);
    assert_string_equal(fi.function, "symidx_other_call");
    assert_string_equal(base(fi.file), "symidx_other.c");
}

static void binding_and_enclosing_symbols(void **state)
{
    (void)state;
    expect_data(symidx_global + 4, "symidx_global", 4);
    expect_data(symidx_inner + 4, "symidx_inner", 4);
    expect_data(symidx_outer + 4, "symidx_outer", 4);
    expect_data(symidx_outer + 40, "symidx_outer", 40);
}

/* ---- every answer is libdw's ------------------------------------------------ */

static void expect_libdw_answer(Dwfl_Module *m, GElf_Addr addr)
{
    GElf_Off off = 0, want_off = 0;
    GElf_Sym sym, want_sym;
    const char *name = uld_symindex_addrinfo(m, addr, &off, &sym);
    const char *want = dwfl_module_addrinfo(m, addr, &want_off, &want_sym, NULL, NULL, NULL);
    if (name != want || (name && (off != want_off || memcmp(&sym, &want_sym, sizeof(sym)))))
        fail_msg("%#lx: index says %s+%#lx, libdw %s+%#lx", (unsigned long)addr,
                 name ? name : "-", (unsigned long)off, want ? want : "-",
                 (unsigned long)want_off);
    int local = -1, want_local = -1;
    const char *file = NULL, *want_file = NULL;
    int found = uld_symindex_object(m, addr, &local, &file);
    if (found != uld_symindex_object_by_scan(m, addr, &want_local, &want_file) ||
        (found && (local != want_local || file != want_file)))
        fail_msg("%#lx: object scope differs from the table scan", (unsigned long)addr);
}

static char *debuginfo_path;
static const Dwfl_Callbacks offline = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* Around every stride-th symbol of the file at path: its start, middle,
 * last byte and the bytes just outside it.  Returns the symbols seen. */
static int compare_with_libdw(const char *path, int stride)
{
    Dwfl *dwfl = dwfl_begin(&offline);
    assert_non_null(dwfl);
    dwfl_report_begin(dwfl);
    Dwfl_Module *m = dwfl_report_offline(dwfl, path, path, -1);
    dwfl_report_end(dwfl, NULL, NULL);
    assert_non_null(m);
    int n = dwfl_module_getsymtab(m);
    for (int i = 0; i < n; i += stride) {
        GElf_Sym sym;
        GElf_Addr v;
        if (!dwfl_module_getsym_info(m, i, &sym, &v, NULL, NULL, NULL))
            continue;
        GElf_Addr at[] = {v - 1, v, v + sym.st_size / 2, v + sym.st_size - 1, v + sym.st_size};
        for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++)
            expect_libdw_answer(m, at[k]);
    }
    uld_symindex_forget_all(); /* before libdw frees the module */
    dwfl_end(dwfl);
    return n;
}

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    if (info->dlpi_name && strstr(info->dlpi_name, "/libc.so.")) {
        *(const char **)arg = info->dlpi_name;
        return 1;
    }
    return 0;
}

static void this_program_as_libdw(void **state)
{
    (void)state;
    static char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    assert_true(len > 0);
    exe[len] = 0;
    assert_true(compare_with_libdw(exe, 1) > 20);
}

static void libc_as_libdw(void **state)
{
    (void)state;
    const char *libc = NULL;
    dl_iterate_phdr(find_libc, &libc);
    if (!libc)
        skip();
    /* libdw's scan is the slow side: a sample of the table, every region */
    assert_true(compare_with_libdw(libc, 13) > 2000);
}

int main(void)
{
    uld_config_parse(NULL);
    if (!uld_dw_load())
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_name_statics_keep_their_files),
        cmocka_unit_test(frame_in_second_file),
        cmocka_unit_test(binding_and_enclosing_symbols),
        cmocka_unit_test(this_program_as_libdw),
        cmocka_unit_test(libc_as_libdw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
