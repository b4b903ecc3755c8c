/* config.c: option parsing, defaults and one-line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"

static void test_defaults(void **state)
{
    (void)state;
    assert_int_equal(uld_config_parse(NULL), 0);
    assert_int_equal(uld_config.exitcode, 66);
    assert_int_equal(uld_config.verbosity, 1);
    assert_int_equal(uld_config.symbolize, 1);
    assert_string_equal(uld_config.log_path, "");
}

static void test_values(void **state)
{
    (void)state;
    assert_int_equal(uld_config_parse("exitcode=3:log_path=/tmp/x.log:verbosity=0:"
                                      "symbolize=false:max_edges=0x100"),
                     0);
    assert_int_equal(uld_config.exitcode, 3);
    assert_string_equal(uld_config.log_path, "/tmp/x.log");
    assert_int_equal(uld_config.verbosity, 0);
    assert_int_equal(uld_config.symbolize, 0);
    assert_int_equal(uld_config.max_edges, 256);
}

/* '\:' and '\\' in a value: paths with ':' (run escapes every path it passes). */
static void test_escapes(void **state)
{
    (void)state;
    assert_int_equal(uld_config_parse("log_path=/tmp/a\\:b.log:json_path=c\\\\:verbosity=0:"
                                      "skip=ctest,make"),
                     0);
    assert_string_equal(uld_config.log_path, "/tmp/a:b.log");
    assert_string_equal(uld_config.json_path, "c\\");
    assert_int_equal(uld_config.verbosity, 0);
    assert_true(uld_config_skips_program("make"));
    assert_false(uld_config_skips_program("mak"));
    assert_false(uld_config_skips_program("cmake"));
}

static void test_errors_keep_defaults(void **state)
{
    (void)state;
    /* each bad item is one error; the good ones still apply */
    assert_int_equal(uld_config_parse("nosuch=1:exitcode=300:exitcode=x:halt_on_error=maybe:"
                                      "summary=0"),
                     4);
    assert_int_equal(uld_config.exitcode, 66);
    assert_int_equal(uld_config.halt_on_error, 0);
    assert_int_equal(uld_config.summary, 0);
}

static void test_empty_items_and_flags(void **state)
{
    (void)state;
    assert_int_equal(uld_config_parse("::halt_on_error::"), 0);
    assert_int_equal(uld_config.halt_on_error, 1);
}

/* wrappers=a:b: the option separator also separates the globs, until the
 * next item that is an option (with or without a value). */
static void test_list_option(void **state)
{
    (void)state;
    assert_int_equal(uld_config_parse("wrappers=nni_mtx_*:nni_plat_*:exitcode=3"), 0);
    assert_string_equal(uld_config.wrappers, "nni_mtx_*:nni_plat_*");
    assert_int_equal(uld_config.exitcode, 3);
    assert_int_equal(uld_config.builtin_wrappers, 1);
    assert_int_equal(uld_config_parse("stats:wrappers=a*:b*:stats:c*"), 1); /* c*: unknown */
    assert_string_equal(uld_config.wrappers, "a*:b*");
    assert_int_equal(uld_config.stats, 1);
    assert_int_equal(uld_config_parse("builtin_wrappers=0"), 0);
    assert_int_equal(uld_config.builtin_wrappers, 0);
    assert_string_equal(uld_config.wrappers, "");
}

static void test_expand_pid(void **state)
{
    (void)state;
    char out[64], expect[64];
    uld_config_expand_path("/tmp/uld.%p.log", out, sizeof(out));
    snprintf(expect, sizeof(expect), "/tmp/uld.%d.log", (int)getpid());
    assert_string_equal(out, expect);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_errors_keep_defaults),
        cmocka_unit_test(test_empty_items_and_flags),
        cmocka_unit_test(test_list_option),
        cmocka_unit_test(test_expand_pid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
