/* fmt.c: the malloc-free formatter reports are written with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/internal.h"

static void check(const char *expect, const char *got)
{
    assert_string_equal(got, expect);
}

static void test_conversions(void **state)
{
    (void)state;
    char buf[128];
    uld_snprintf(buf, sizeof(buf), "%d %u %x %s %c %%", -42, 42u, 255u, "str", 'c');
    check("-42 42 ff str c %", buf);
    uld_snprintf(buf, sizeof(buf), "%ld %lu %llx %zu", -1L, 123456789012UL, 0xdeadbeefULL,
                 (size_t)7);
    check("-1 123456789012 deadbeef 7", buf);
    uld_snprintf(buf, sizeof(buf), "%p", (void *)0x1234);
    check("0x1234", buf);
    uld_snprintf(buf, sizeof(buf), "%lld", (long long)-9223372036854775807LL - 1);
    check("-9223372036854775808", buf);
}

static void test_width_and_precision(void **state)
{
    (void)state;
    char buf[128];
    uld_snprintf(buf, sizeof(buf), "[%5d][%-5d][%05d][%*s]", 42, 42, -42, 4, "x");
    check("[   42][42   ][-0042][   x]", buf);
    uld_snprintf(buf, sizeof(buf), "[%.3s][%.*s][%-6s]", "abcdef", 2, "xyz", "ab");
    check("[abc][xy][ab    ]", buf);
}

static void test_truncation(void **state)
{
    (void)state;
    char buf[8];
    int n = uld_snprintf(buf, sizeof(buf), "%s", "0123456789");
    assert_int_equal(n, 7);
    check("0123456", buf);
}

static void test_json_escaping(void **state)
{
    (void)state;
    char mem[128];
    struct uld_buf b;
    uld_buf_init(&b, mem, sizeof(mem), -1);
    uld_buf_json_str(&b, "a\"b\\c\nd\x01");
    uld_buf_putc(&b, ' ');
    uld_buf_json_str(&b, NULL);
    check("\"a\\\"b\\\\c\\nd\\u0001\" null", uld_buf_cstr(&b));
}

static void test_flush_to_fd(void **state)
{
    (void)state;
    char mem[16];
    struct uld_buf b;
    FILE *f = tmpfile();
    assert_non_null(f);
    uld_buf_init(&b, mem, sizeof(mem), fileno(f));
    for (int i = 0; i < 10; i++)
        uld_buf_printf(&b, "line %d\n", i);
    uld_buf_flush(&b);
    rewind(f);
    char all[256] = {0};
    size_t n = fread(all, 1, sizeof(all) - 1, f);
    assert_int_equal(n, 70);
    assert_non_null(strstr(all, "line 9\n"));
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_width_and_precision),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_json_escaping),
        cmocka_unit_test(test_flush_to_fd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
