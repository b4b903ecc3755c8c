/*
 * robust_dlreload_same.c - the SAME library is dlclose'd and dlopen'ed
 * again (tests/progs/robust/robust_reload.c as librobust_reload_a.so).
 *
 * The first load takes first_a -> second_a, the second load (at another
 * address: librobust_reload_b.so is loaded in between and takes the place
 * the first load left) second_a -> first_a.  A static lock's identity follows its symbol: the reloaded
 * library's first_a and second_a are the classes they were (same keys in
 * the graph dump: first_a@robust_reload.c, file-local statics), so the two orders close a class cycle, as they would
 * in two processes merged by `ulockdep merge`.  The code that took one
 * order in the first load takes it in the second: had the two paths run
 * in one load they would deadlock.  The lock instances of the first load
 * ended with the unload, so this is a cycle among classes only: one
 * class-order-inversion naming both.  An unload must not lose it.
 *
 * OPTIONS: graph_path=reload.graph
 * EXPECT: class-order-inversion first_a second_a
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
    OK(dlclose(a.handle));

    /* librobust_reload_b.so takes the place a left, so a comes back at
     * another address: identity must follow the file, not the address */
    reload_open(&b, 'b');
    reload_open(&a, 'a'); /* a fresh copy: its counter starts at 0 again */
    CHECK(a.backward() == 1);

    const char *dump = read_dump("reload.graph");
    if (under_validator()) { /* both orders, between the same two keys */
        CHECK(has(dump, "\"from\":\"first_a@robust_reload.c\",\"to\":\"second_a@"));
        CHECK(has(dump, "\"from\":\"second_a@robust_reload.c\",\"to\":\"first_a@"));
    }
    OK(dlclose(a.handle));
    OK(dlclose(b.handle));
    return 0;
}
