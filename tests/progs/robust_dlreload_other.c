/*
 * robust_dlreload_other.c - a library is dlclose'd and ANOTHER library is
 * dlopen'ed at the same address: the second one's static locks and init
 * sites sit exactly where the first one's were (tests/progs/robust/
 * robust_reload.c, built twice with different names and one layout).
 *
 * librobust_reload_a.so takes first_a -> second_a and first_a -> its heap
 * lock (class make_lock_a:<line>); after it is unloaded,
 * librobust_reload_b.so takes second_b -> first_b and its heap lock ->
 * first_b.  These are different locks of different code: nothing can
 * deadlock, no report.  An unload ends the identity of the module's static
 * locks and classes, so b's locks must not inherit a's classes (which
 * would close two class cycles: class-order-inversion warnings).  The
 * graph dump must key b's classes by b's names (a stale symbol cache or
 * module map would key them first_a, make_lock_a...), and still a's by a's.
 *
 * If the loader does not put b where a was, the scenario cannot be set up:
 * the program says so and is skipped.
 *
 * OPTIONS: graph_path=reload.graph
 * EXPECT: none
 */
#include "robust_dlreload.h"

static int has(const char *dump, const char *s)
{
    return strstr(dump, s) != NULL;
}

int main(void)
{
    struct reload_lib a, b;
    reload_open(&a, 'a');
    CHECK(a.forward() == 1);
    pthread_mutex_t *ma = a.make();
    CHECK(ma && a.with(ma, 1) == 2);
    void *a_base = a.base;
    OK(dlclose(a.handle));

    reload_open(&b, 'b');
    if (b.base != a_base) {
        fprintf(stderr, "SKIP: the loader mapped librobust_reload_b.so at %p, not where "
                        "librobust_reload_a.so was (%p)\n", b.base, a_base);
        return 77;
    }
    CHECK(b.backward() == 1);
    pthread_mutex_t *mb = b.make();
    CHECK(mb && b.with(mb, 0) == 2);

    const char *dump = read_dump("reload.graph");
    if (under_validator()) {
        /* edges of b keyed by b's names, edges of a by a's (file-local
         * statics are keyed symbol@file) */
        CHECK(has(dump, "\"from\":\"second_b@robust_reload.c\",\"to\":\"first_b@"));
        CHECK(has(dump, "\"from\":\"make_lock_b@robust_reload.c:+"));
        CHECK(has(dump, "\"from\":\"first_a@robust_reload.c\",\"to\":\"second_a@"));
        CHECK(has(dump, "\"to\":\"make_lock_a@robust_reload.c:+"));
        CHECK(!has(dump, "\"from\":\"second_a@") && !has(dump, "\"from\":\"make_lock_a@"));
    }
    OK(dlclose(b.handle));
    OK(pthread_mutex_destroy(ma));
    OK(pthread_mutex_destroy(mb));
    free(ma);
    free(mb);
    return 0;
}
