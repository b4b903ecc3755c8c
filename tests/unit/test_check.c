/*
 * check.c through the hooks the interposer calls: the rules end to end,
 * single-threaded, on fake lock objects.  Each test uses locks of its own,
 * so the graph left by one test cannot explain another's result.
 */
#include <setjmp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hooks.h"
#include "report/report.h"

#define IP ((uintptr_t)0x1234)
static const struct uld_lockdesc MUTEX = {.type = ULD_TYPE_MUTEX, .flags = 0};
static const struct uld_lockdesc RECURSIVE = {.type = ULD_TYPE_MUTEX, .flags = ULD_LF_RECURSIVE};
static const struct uld_lockdesc RWLOCK = {.type = ULD_TYPE_RWLOCK, .flags = 0};
static char json_path[64];

static void acquire(void *l, struct uld_lockdesc d, unsigned af)
{
    struct uld_acq a;
    if (uld_acquire_begin(&a, l, d, af, IP))
        uld_acquire_end(&a, 1);
}

static void lock(void *l) { acquire(l, MUTEX, 0); }
static void unlock(void *l) { uld_on_release(l, MUTEX, 0, IP); }

/* The kind of the newest JSON report, or "" if there was none since `mark`. */
static long mark;
static const char *last_kind(void)
{
    static char kind[64];
    FILE *f = fopen(json_path, "r");
    char line[1 << 16];
    long n = 0;
    kind[0] = '\0';
    while (f && fgets(line, sizeof(line), f)) {
        if (++n <= mark)
            continue;
        char *k = strstr(line, "\"kind\":\"");
        if (k)
            sscanf(k + 8, "%63[^\"]", kind);
    }
    if (f)
        fclose(f);
    mark = n;
    return kind;
}

static int setup(void **state)
{
    (void)state;
    char opts[256];
    snprintf(json_path, sizeof(json_path), "/tmp/uld-test-check-%d.json", (int)getpid());
    unlink(json_path);
    snprintf(opts, sizeof(opts), "json_path=%s:log_path=/dev/null:exitcode=0", json_path);
    setenv("ULOCKDEP_OPTIONS", opts, 1);
    uld_init();
    return uld_is_ready() ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    unlink(json_path);
    return 0;
}

static void test_abba_single_thread(void **state)
{
    (void)state;
    static char a[8], b[8];
    last_kind();
    lock(a), lock(b), unlock(b), unlock(a);
    assert_string_equal(last_kind(), "");
    lock(b), lock(a), unlock(a), unlock(b);
    assert_string_equal(last_kind(), "lock-order-inversion");
    /* the same problem again is not reported again */
    lock(b), lock(a), unlock(a), unlock(b);
    assert_string_equal(last_kind(), "");
}

static void test_three_lock_cycle(void **state)
{
    (void)state;
    static char a[8], b[8], c[8];
    lock(a), lock(b), unlock(b), unlock(a);
    lock(b), lock(c), unlock(c), unlock(b);
    assert_string_equal(last_kind(), "");
    lock(c), lock(a), unlock(a), unlock(c);
    assert_string_equal(last_kind(), "lock-order-inversion");
}

static void test_trylock_adds_no_edge_into_the_lock(void **state)
{
    (void)state;
    static char a[8], b[8];
    lock(a), acquire(b, MUTEX, ULD_AF_TRY), unlock(b), unlock(a);
    lock(b), lock(a), unlock(a), unlock(b);
    assert_string_equal(last_kind(), "");
    /* but a trylocked lock held while blocking on another does */
    static char c[8], d[8];
    acquire(c, MUTEX, ULD_AF_TRY), lock(d), unlock(d), unlock(c);
    lock(d), lock(c), unlock(c), unlock(d);
    assert_string_equal(last_kind(), "lock-order-inversion");
}

static void test_relock(void **state)
{
    (void)state;
    static char r[8], m[8];
    acquire(r, RECURSIVE, 0), acquire(r, RECURSIVE, 0);
    uld_on_release(r, RECURSIVE, 0, IP), uld_on_release(r, RECURSIVE, 0, IP);
    assert_string_equal(last_kind(), "");
    struct uld_acq a;
    lock(m);
    assert_true(uld_acquire_begin(&a, m, MUTEX, 0, IP)); /* would block: reported before */
    assert_string_equal(last_kind(), "self-deadlock");
    uld_acquire_end(&a, 0);
    unlock(m);
}

static void test_rwlock_read_read_is_fine_write_is_not(void **state)
{
    (void)state;
    static char a[8], b[8], c[8], d[8];
    acquire(a, RWLOCK, ULD_AF_READ), acquire(b, RWLOCK, ULD_AF_READ);
    uld_on_release(b, RWLOCK, 0, IP), uld_on_release(a, RWLOCK, 0, IP);
    acquire(b, RWLOCK, ULD_AF_READ), acquire(a, RWLOCK, ULD_AF_READ);
    uld_on_release(a, RWLOCK, 0, IP), uld_on_release(b, RWLOCK, 0, IP);
    assert_string_equal(last_kind(), "");
    acquire(c, RWLOCK, 0), acquire(d, RWLOCK, ULD_AF_READ);
    uld_on_release(d, RWLOCK, 0, IP), uld_on_release(c, RWLOCK, 0, IP);
    acquire(d, RWLOCK, 0), acquire(c, RWLOCK, ULD_AF_READ);
    uld_on_release(c, RWLOCK, 0, IP), uld_on_release(d, RWLOCK, 0, IP);
    assert_string_equal(last_kind(), "lock-order-inversion");
}

static void test_gate_lock(void **state)
{
    (void)state;
    static char g[8], a[8], b[8];
    lock(g), lock(a), lock(b), unlock(b), unlock(a), unlock(g);
    lock(g), lock(b), lock(a), unlock(a), unlock(b), unlock(g);
    assert_string_equal(last_kind(), "");
    /* once the inverted order also happens outside the gate, it is real */
    lock(b), lock(a), unlock(a), unlock(b);
    assert_string_equal(last_kind(), "lock-order-inversion");
}

static void test_misuse(void **state)
{
    (void)state;
    static char m[8], n[8], o[8];
    unlock(m);
    assert_string_equal(last_kind(), "unlock-not-held");
    uld_lock_created(n, MUTEX, IP);
    uld_on_release(n, MUTEX, 999999, IP); /* the object says tid 999999 holds it */
    assert_string_equal(last_kind(), "unlock-not-owner");
    /* never initialised nor acquired, yet it says it is held: not a lock */
    uld_on_release(o, MUTEX, 999999, IP);
    assert_string_equal(last_kind(), "invalid-lock");
    lock(m);
    uld_lock_destroyed(m, MUTEX, 1, 0, IP);
    assert_string_equal(last_kind(), "destroy-held");
    unlock(m);
    assert_string_equal(last_kind(), "");
}

/* Instances of two classes in opposite orders: a class-level warning only. */
static void test_class_order_and_same_class_nesting(void **state)
{
    (void)state;
    static char heap[256] __attribute__((aligned(64)));
    void *a1 = heap, *a2 = heap + 64, *b1 = heap + 128, *b2 = heap + 192;
    uld_lock_created(a1, MUTEX, 0x5000);
    uld_lock_created(a2, MUTEX, 0x5000);
    uld_lock_created(b1, MUTEX, 0x6000);
    uld_lock_created(b2, MUTEX, 0x6000);
    lock(a1), lock(b1), unlock(b1), unlock(a1);
    lock(b2), lock(a2), unlock(a2), unlock(b2);
    assert_string_equal(last_kind(), "class-order-inversion");
    /* same class nested in both orders on the same two instances: instance cycle */
    lock(a1), lock(a2), unlock(a2), unlock(a1);
    assert_string_equal(last_kind(), "");
    lock(a2), lock(a1), unlock(a1), unlock(a2);
    assert_string_equal(last_kind(), "lock-order-inversion");
    /* freed memory reused by new locks inherits nothing */
    uld_range_released(heap, 256, IP);
    uld_lock_created(a1, MUTEX, 0x7000);
    uld_lock_created(a2, MUTEX, 0x7000);
    lock(a1), lock(a2), unlock(a2), unlock(a1);
    assert_string_equal(last_kind(), "");
}

static void *lock_unlock_thread(void *l)
{
    lock(l), unlock(l);
    return NULL;
}

/*
 * A lock created and first locked under g: no g -> m.  When another thread
 * reaches the lock between the check and the real lock call (the claim),
 * the first acquisition may have blocked and is validated after the fact.
 */
static void test_fresh_lock_first_acquisition(void **state)
{
    (void)state;
    static char g[8], m[8], n[8];
    lock(g), uld_lock_created(m, MUTEX, 0x8000), lock(m), unlock(m), unlock(g);
    lock(m), lock(g), unlock(g), unlock(m);
    assert_string_equal(last_kind(), "");

    struct uld_acq a;
    pthread_t other;
    lock(g), uld_lock_created(n, MUTEX, 0x9000);
    assert_true(uld_acquire_begin(&a, n, MUTEX, 0, IP));
    assert_int_equal(pthread_create(&other, NULL, lock_unlock_thread, n), 0);
    assert_int_equal(pthread_join(other, NULL), 0);
    uld_acquire_end(&a, 1);
    unlock(n), unlock(g);
    assert_string_equal(last_kind(), "");
    lock(n), lock(g), unlock(g), unlock(n);
    assert_string_equal(last_kind(), "lock-order-inversion");
}

static void use_at(void *l, struct uld_lockdesc d, unsigned af, uintptr_t ip)
{
    struct uld_acq a;
    if (uld_acquire_begin(&a, l, d, af, ip))
        uld_acquire_end(&a, 1);
    uld_on_release(l, d, 0, ip);
}

/*
 * Use after destroy (tomb.c): a rwlock whose tag survives is still the
 * destroyed one (one report for the lock and its unlock); one whose tag is
 * gone was built again; init and free end the tombstone.  A mutex is judged
 * by glibc's destroyed mark (ULD_LF_DESTROYED), even with no tombstone.
 */
static void test_use_after_destroy(void **state)
{
    (void)state;
    static uint64_t obj[7], obj2[7];
    struct uld_lockdesc rw = {.type = ULD_TYPE_RWLOCK, .flags = 0, .tag = &obj[5]};
    uld_lock_created(obj, rw, 0xa000);
    use_at(obj, rw, 0, 0xa001);
    uld_lock_destroyed(obj, rw, 0, 1, 0xa002);
    assert_string_equal(last_kind(), "");
    use_at(obj, rw, ULD_AF_READ, 0xa003);
    assert_string_equal(last_kind(), "use-after-destroy");
    use_at(obj, rw, ULD_AF_READ, 0xa004); /* reported once per destroyed lock */
    uld_lock_destroyed(obj, rw, 0, 1, 0xa005);
    assert_string_equal(last_kind(), "");

    uld_lock_created(obj, rw, 0xa010); /* init: a new lock */
    use_at(obj, rw, 0, 0xa011);
    uld_lock_destroyed(obj, rw, 0, 1, 0xa012);
    obj[5] = 0; /* PTHREAD_RWLOCK_INITIALIZER assigned: built again */
    use_at(obj, rw, 0, 0xa013);
    assert_string_equal(last_kind(), "");

    uld_lock_destroyed(obj, rw, 0, 1, 0xa020);
    uld_range_released(obj, sizeof(obj), 0xa021); /* freed: anything may live there */
    assert_false(uld_range_may_hold_locks(obj, sizeof(obj)));
    use_at(obj, rw, 0, 0xa022);
    assert_string_equal(last_kind(), "");

    struct uld_lockdesc m = {.type = ULD_TYPE_MUTEX, .flags = 0, .tag = NULL};
    struct uld_lockdesc m_dead = {.type = ULD_TYPE_MUTEX, .flags = ULD_LF_DESTROYED};
    uld_lock_created(obj2, m, 0xa030);
    uld_lock_destroyed(obj2, m, 0, 1, 0xa031);
    use_at(obj2, m, 0, 0xa032); /* kind rewritten: a new mutex */
    assert_string_equal(last_kind(), "");
    uld_lock_destroyed(obj2, m, 0, 1, 0xa033);
    uld_range_released(obj2, sizeof(obj2), 0xa034);
    use_at(obj2, m_dead, 0, 0xa035); /* freed, yet glibc's mark is there */
    assert_string_equal(last_kind(), "use-after-destroy");
}

static void test_exit_code_counts_errors(void **state)
{
    (void)state;
    assert_true(uld_report_errors() >= 7);
    assert_true(uld_report_warnings() >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abba_single_thread),
        cmocka_unit_test(test_three_lock_cycle),
        cmocka_unit_test(test_trylock_adds_no_edge_into_the_lock),
        cmocka_unit_test(test_relock),
        cmocka_unit_test(test_rwlock_read_read_is_fine_write_is_not),
        cmocka_unit_test(test_gate_lock),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_class_order_and_same_class_nesting),
        cmocka_unit_test(test_fresh_lock_first_acquisition),
        cmocka_unit_test(test_use_after_destroy),
        cmocka_unit_test(test_exit_code_counts_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
