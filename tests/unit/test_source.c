/*
 * test_source.c - source lines for reports (lib/report/source.c): the line asked
 * for, trimmed; nothing (and no error) for every file that cannot be shown:
 * missing, relative, a directory, a FIFO (without blocking), past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>

#include "report/source.h"

static char dir[64];

static const char *write_file(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void reads_the_line(void **state)
{
    (void)state;
    char out[64];
    const char *p = write_file("a.c", "int x;\n\tpool->have = new_lock(0);  \r\n}\nlast");
    assert_int_equal(uld_source_line(p, 2, out, sizeof(out)), 1);
    assert_string_equal(out, "pool->have = new_lock(0);");
    assert_int_equal(uld_source_line(p, 4, out, sizeof(out)), 1); /* no final newline */
    assert_string_equal(out, "last");
    assert_int_equal(uld_source_line(p, 5, out, sizeof(out)), 0);
    assert_string_equal(out, "");
    assert_int_equal(uld_source_line(p, 0, out, sizeof(out)), 0);
}

static void long_lines_are_cut(void **state)
{
    (void)state;
    char big[40000], out[32];
    memset(big, 'x', sizeof(big) - 2);
    big[sizeof(big) - 2] = '\n';
    big[sizeof(big) - 1] = '\0';
    const char *p = write_file("big.c", big);
    assert_int_equal(uld_source_line(p, 1, out, sizeof(out)), 1);
    assert_int_equal(strlen(out), sizeof(out) - 1);
}

static void what_cannot_be_shown(void **state)
{
    (void)state;
    char out[64], fifo[128];
    assert_int_equal(uld_source_line("/nonexistent/x.c", 1, out, sizeof(out)), 0);
    assert_int_equal(uld_source_line("a.c", 1, out, sizeof(out)), 0); /* relative */
    assert_int_equal(uld_source_line(NULL, 1, out, sizeof(out)), 0);
    assert_int_equal(uld_source_line(dir, 1, out, sizeof(out)), 0); /* a directory */
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(uld_source_line(fifo, 1, out, sizeof(out)), 0); /* no writer: no wait */
    unlink(fifo);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/uld-source-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_the_line),
        cmocka_unit_test(long_lines_are_cut),
        cmocka_unit_test(what_cannot_be_shown),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
