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

/* Every key inserted since the last flush is found, wherever its probe
 * window lies (readers skip pages no insert wrote: windows that cross into
 * one an insert reached must still be followed). */
static void test_every_key_found_across_pages(void **state)
{
    (void)state;
    assert_true(uld_chain_init(10)); /* 1024 slots: two pages */
    uld_chain_flush();
    enum { N = 500 }; /* below the half-full flush */
    for (uint32_t i = 0; i < N; i++)
        uld_chain_insert(uld_chain_mix(0, 7000 + i, 0));
    assert_int_equal(uld_chain_count(), N);
    for (uint32_t i = 0; i < N; i++)
        assert_true(uld_chain_contains(uld_chain_mix(0, 7000 + i, 0)));
    assert_false(uld_chain_contains(uld_chain_mix(0, 6999, 0)));
    uld_chain_flush();
    for (uint32_t i = 0; i < N; i++)
        assert_false(uld_chain_contains(uld_chain_mix(0, 7000 + i, 0)));
    uld_chain_insert(uld_chain_mix(0, 7000, 0));
    assert_true(uld_chain_contains(uld_chain_mix(0, 7000, 0)));
}

/* chain.c's slot for a key in a table of 1024 */
static size_t slot_1024(uint64_t key)
{
    return (size_t)(key ^ (key >> 29)) & 1023;
}

/* Keys that all want the last slot of a page: the later ones go on into the
 * next page (at 512) or wrap around to the first (at 0), and are found there. */
static void test_window_crossing_a_page(void **state)
{
    (void)state;
    assert_true(uld_chain_init(10));
    uld_chain_flush();
    uint64_t keys[8];
    int n = 0;
    for (uint32_t i = 0; n < 8 && i < 10000000; i++) {
        uint64_t k = uld_chain_mix(0, i, 0);
        if (slot_1024(k) == (n < 4 ? 511 : 1023))
            keys[n++] = k;
    }
    assert_int_equal(n, 8);
    for (int i = 0; i < n; i++)
        uld_chain_insert(keys[i]);
    for (int i = 0; i < n; i++)
        assert_true(uld_chain_contains(keys[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_and_lookup),
        cmocka_unit_test(test_mix_depends_on_order_and_mode),
        cmocka_unit_test(test_flush_when_full),
        cmocka_unit_test(test_every_key_found_across_pages),
        cmocka_unit_test(test_window_crossing_a_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
