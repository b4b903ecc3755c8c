/* test_one.c - takes libfoo's foo_a then foo_b. */
struct foo;
struct foo *foo_new(void);
void foo_ab(struct foo *f);

int main(void)
{
    foo_ab(foo_new());
    return 0;
}
