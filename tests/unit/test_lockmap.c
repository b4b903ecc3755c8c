/* lockmap.c + class.c: lock identity by address, classes, the free() bitmap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>

#include "base/config.h"
#include "core.h"

static const struct uld_lockdesc mutex = {.type = ULD_TYPE_MUTEX, .flags = 0};
static int static_lock; /* a static object: its own class when never initialised */

static int setup(void **state)
{
    (void)state;
    uld_config_parse(NULL);
    return uld_lockmap_init() ? 0 : -1;
}

static void test_create_lookup_forget(void **state)
{
    (void)state;
    char *heap = malloc(256);
    struct uld_lock *l = uld_lock_create((uintptr_t)heap, mutex, ULD_SITE_INIT, 0x1000, NULL);
    assert_non_null(l);
    assert_ptr_equal(uld_lock_lookup((uintptr_t)heap), l);
    assert_null(uld_lock_lookup((uintptr_t)heap + 8));
    uint32_t id = l->id;
    struct uld_class *cls = l->cls;
    uld_lock_forget(l);
    assert_null(uld_lock_lookup((uintptr_t)heap));
    /* same address, new lifetime: a new identity */
    struct uld_lock *l2 = uld_lock_create((uintptr_t)heap, mutex, ULD_SITE_INIT, 0x1000, NULL);
    assert_true(l2->id != id);
    assert_ptr_equal(l2->cls, cls); /* same init site, same class */
    uld_lock_forget(l2);
    free(heap);
}

static void test_classes_by_site(void **state)
{
    (void)state;
    char *heap = malloc(256);
    struct uld_lock *a = uld_lock_create((uintptr_t)heap, mutex, ULD_SITE_INIT, 0x2000, NULL);
    struct uld_lock *b = uld_lock_create((uintptr_t)heap + 64, mutex, ULD_SITE_INIT, 0x2000, NULL);
    struct uld_lock *c = uld_lock_create((uintptr_t)heap + 128, mutex, ULD_SITE_INIT, 0x3000, NULL);
    assert_ptr_equal(a->cls, b->cls);
    assert_true(a->cls != c->cls);
    assert_int_equal(a->ordinal + 1, b->ordinal);
    struct uld_lock *s = uld_lock_create((uintptr_t)&static_lock, mutex, ULD_SITE_FIRST_USE,
                                         0x2000, NULL);
    assert_int_equal(s->site_kind, ULD_SITE_STATIC);
    assert_true(s->is_static);
    assert_int_equal(s->cls->k.key, (uintptr_t)&static_lock);
    uld_lock_forget(a);
    uld_lock_forget(b);
    uld_lock_forget(c);
    uld_lock_forget(s);
    free(heap);
}

static void count(struct uld_lock *l, void *arg)
{
    (void)l;
    ++*(int *)arg;
}

static void test_range_bitmap(void **state)
{
    (void)state;
    char *block = malloc(4096);
    assert_false(uld_lockmap_range_marked((uintptr_t)block, 4096));
    struct uld_lock *l = uld_lock_create((uintptr_t)block + 1000, mutex, ULD_SITE_INIT, 1, NULL);
    assert_true(uld_lockmap_range_marked((uintptr_t)block, 4096));
    assert_false(uld_lockmap_range_marked((uintptr_t)block, 512));
    int n = 0;
    uld_lockmap_for_range((uintptr_t)block, 4096, count, &n);
    assert_int_equal(n, 1);
    n = 0;
    uld_lockmap_for_range((uintptr_t)block + 1004, 100, count, &n);
    assert_int_equal(n, 0); /* the lock starts before the range */
    uld_lock_forget(l);
    assert_false(uld_lockmap_range_marked((uintptr_t)block, 4096));
    free(block);
}

/* The table grows and keeps every live lock findable; churn does not leak. */
static void test_many_locks(void **state)
{
    (void)state;
    enum { COUNT = 100000 };
    char *area = malloc(COUNT * 8);
    for (int i = 0; i < COUNT; i++)
        assert_non_null(uld_lock_create((uintptr_t)area + i * 8, mutex, ULD_SITE_INIT, 7, NULL));
    assert_int_equal(uld_lockmap_live(), COUNT);
    for (int i = 0; i < COUNT; i += 997)
        assert_non_null(uld_lock_lookup((uintptr_t)area + i * 8));
    for (int i = 0; i < COUNT; i++)
        uld_lock_forget(uld_lock_lookup((uintptr_t)area + i * 8));
    assert_int_equal(uld_lockmap_live(), 0);
    size_t mapped = uld_arena_bytes();
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < COUNT; i++)
            uld_lock_create((uintptr_t)area + i * 8, mutex, ULD_SITE_INIT, 7, NULL);
        for (int i = 0; i < COUNT; i++)
            uld_lock_forget(uld_lock_lookup((uintptr_t)area + i * 8));
    }
    assert_true(uld_arena_bytes() <= mapped + (8u << 20));
    free(area);
}

static void test_lock_limit(void **state)
{
    (void)state;
    uld_config.max_locks = uld_lockmap_live() + 2;
    char *area = malloc(64);
    assert_non_null(uld_lock_create((uintptr_t)area, mutex, ULD_SITE_INIT, 9, NULL));
    assert_non_null(uld_lock_create((uintptr_t)area + 8, mutex, ULD_SITE_INIT, 9, NULL));
    assert_null(uld_lock_create((uintptr_t)area + 16, mutex, ULD_SITE_INIT, 9, NULL));
    uld_lock_forget(uld_lock_lookup((uintptr_t)area));
    uld_lock_forget(uld_lock_lookup((uintptr_t)area + 8));
    free(area);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_lookup_forget),
        cmocka_unit_test(test_classes_by_site),
        cmocka_unit_test(test_range_bitmap),
        cmocka_unit_test(test_many_locks),
        cmocka_unit_test(test_lock_limit),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
