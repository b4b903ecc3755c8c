/* chain.c: the validated-chain cache behind the fast path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/chain.h"

static void test_insert_and_lookup(void **state)
{
    (void)state;
    assert_true(uld_chain_init(10));
    uint64_t k = uld_chain_mix(0, 5, 0);
    assert_false(uld_chain_contains(k));
    uld_chain_insert(k);
    assert_true(uld_chain_contains(k));
    uld_chain_insert(k); /* idempotent */
    assert_int_equal(uld_chain_count(), 1);
}

static void test_mix_depends_on_order_and_mode(void **state)
{
    (void)state;
    uint64_t ab = uld_chain_mix(uld_chain_mix(0, 1, 0), 2, 0);
    uint64_t ba = uld_chain_mix(uld_chain_mix(0, 2, 0), 1, 0);
    uint64_t ab_read = uld_chain_mix(uld_chain_mix(0, 1, 0), 2, ULD_MODE_READ);
    assert_true(ab != ba);
    assert_true(ab != ab_read);
    assert_true(ab != 0 && ba != 0);
}

/* Filling the table flushes it instead of failing: it is only a cache. */
static void test_flush_when_full(void **state)
{
    (void)state;
    assert_true(uld_chain_init(10)); /* 1024 slots */
    long flushes = uld_chain_flushes();
    for (uint32_t i = 0; i < 4000; i++)
        uld_chain_insert(uld_chain_mix(0, i, 0));
    assert_true(uld_chain_flushes() > flushes);
    assert_true(uld_chain_count() <= 512);
    /* the newest key is always present after its insert */
    uint64_t k = uld_chain_mix(0, 3999, 0);
    assert_true(uld_chain_contains(k));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_and_lookup),
        cmocka_unit_test(test_mix_depends_on_order_and_mode),
        cmocka_unit_test(test_flush_when_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
