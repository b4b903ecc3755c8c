/* forkset.c: the locks other threads held at fork. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/forkset.h"

static void test_add_has_remove(void **state)
{
    (void)state;
    uld_forkset_clear();
    assert_int_equal(uld_forkset_count(), 0);
    assert_false(uld_forkset_has(0x1000));
    uld_forkset_add(0x1000);
    uld_forkset_add(0x1000); /* read-held by two threads: one entry */
    uld_forkset_add(0x2000);
    assert_int_equal(uld_forkset_count(), 2);
    assert_true(uld_forkset_has(0x1000) && uld_forkset_has(0x2000));
    assert_true(uld_forkset_remove(0x1000));
    assert_false(uld_forkset_remove(0x1000));
    assert_false(uld_forkset_has(0x1000));
    assert_true(uld_forkset_has(0x2000)); /* still found past the tombstone */
    uld_forkset_clear();
    assert_false(uld_forkset_has(0x2000));
}

/* Colliding addresses probe on; a full set keeps what it has and warns once. */
static void test_full(void **state)
{
    (void)state;
    uld_forkset_clear();
    for (uintptr_t a = 1; a <= 10000; a++)
        uld_forkset_add(a << 12);
    int n = uld_forkset_count();
    assert_true(n > 1000 && n < 10000);
    assert_true(uld_forkset_has((uintptr_t)1 << 12));
    assert_false(uld_forkset_has((uintptr_t)10000 << 12));
    for (uintptr_t a = 1; a <= 10000; a++)
        uld_forkset_remove(a << 12);
    assert_int_equal(uld_forkset_count(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_has_remove),
        cmocka_unit_test(test_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
