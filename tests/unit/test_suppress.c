/* suppress.c: the suppression file format shared by the library and the tool. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "base/suppress.h"

static int errors, last_error_line;

static void on_error(const char *file, int line, const char *why)
{
    (void)file;
    (void)why;
    errors++;
    last_error_line = line;
}

static int known_kind(const char *kind)
{
    return !strcmp(kind, "lock-order-inversion") || !strcmp(kind, "self-deadlock");
}

static void test_glob(void **state)
{
    (void)state;
    assert_true(uld_glob_match("lock_?", "lock_a"));
    assert_false(uld_glob_match("lock_?", "lock_ab"));
    assert_true(uld_glob_match("*mutex*", "std::mutex::lock"));
    assert_true(uld_glob_match("*", ""));
    assert_true(uld_glob_match("a*b*c", "aXXbYYc"));
    assert_false(uld_glob_match("a*b*c", "aXXbYY"));
    assert_true(uld_glob_match("*.c", "/src/x/main.c"));
}

static void test_parse_and_errors(void **state)
{
    (void)state;
    errors = 0;
    struct uld_suppression *s = uld_supp_parse(
        "f", "# comment\n\n  lock-order-inversion : lock_a \nno colon here\nbogus-kind:x\n*:libfoo.so*\nself-deadlock:\n",
        known_kind, on_error);
    assert_int_equal(errors, 3);
    assert_int_equal(last_error_line, 7);
    assert_non_null(s);
    assert_string_equal(s->kind, "lock-order-inversion");
    assert_string_equal(s->pattern, "lock_a");
    assert_non_null(s->next);
    assert_string_equal(s->next->kind, "*");
    assert_null(s->next->next);
}

/* A NUL byte ends nothing: its line is named and skipped, later lines count. */
static void test_nul_byte(void **state)
{
    (void)state;
    static const char text[] = "lock-order-inversion:lock_a\nself-deadlock:x\0y\n*:lock_z\n";
    errors = 0;
    struct uld_suppression *s =
        uld_supp_parse_n("f", text, sizeof(text) - 1, known_kind, on_error);
    assert_int_equal(errors, 1);
    assert_int_equal(last_error_line, 2);
    assert_non_null(s);
    assert_string_equal(s->pattern, "lock_a");
    assert_non_null(s->next);
    assert_string_equal(s->next->pattern, "lock_z");
    assert_null(s->next->next);
    uld_supp_free(s);
}

static void test_match(void **state)
{
    (void)state;
    struct uld_suppression *s = uld_supp_parse(
        "f", "lock-order-inversion:lock_a\n*:*/vendor/*\n", known_kind, on_error);
    const char *a[] = {"lock_b", "lock_a"};
    const char *b[] = {"main", "/src/vendor/q.c"};
    const char *c[] = {"lock_b", NULL, "main"};
    assert_ptr_equal(uld_supp_match(s, "lock-order-inversion", a, 2), s);
    assert_null(uld_supp_match(s, "self-deadlock", a, 2)); /* kind must match too */
    assert_ptr_equal(uld_supp_match(s, "self-deadlock", b, 2), s->next);
    assert_null(uld_supp_match(s, "lock-order-inversion", c, 3));
    assert_int_equal(s->hits, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_parse_and_errors),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
