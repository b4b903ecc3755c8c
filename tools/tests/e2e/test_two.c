/* test_two.c - another test program of libfoo.a: foo_b then foo_a (clean
 * alone).  Its own data comes first, so libfoo's locks sit at other offsets
 * than in test_one. */
#include <stdio.h>

void foo_ba(void);
char test_two_table[4096] = {1};

int main(void)
{
    foo_ba();
    return test_two_table[0] == 1 ? 0 : 1;
}
