/* test_two.c - takes libfoo's foo_b then foo_a; more code before main, so
 * libfoo's objects sit at other offsets than in test_one. */
#include <stdio.h>
struct foo;
struct foo *foo_new(void);
void foo_ba(struct foo *f);

static char padding[4096] = "moves the data segment";

__attribute__((noinline)) static int unrelated(int x)
{
    return x * 3 + padding[x & 7];
}

int main(int argc, char **argv)
{
    (void)argv;
    if (unrelated(argc) == -1)
        puts("never");
    foo_ba(foo_new());
    return 0;
}
