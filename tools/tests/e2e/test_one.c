/* test_one.c - a test program of libfoo.a: foo_a then foo_b (clean alone). */
void foo_ab(void);

int main(void)
{
    foo_ab();
    return 0;
}
