/* e2e_yx.c - takes lock_y then lock_x (e2e_locks.c): clean on its own. */
void e2e_take_yx(void);

int main(void)
{
    e2e_take_yx();
    return 0;
}
