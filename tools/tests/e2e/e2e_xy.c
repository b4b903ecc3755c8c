/* e2e_xy.c - takes lock_x then lock_y (e2e_locks.c): clean on its own. */
void e2e_take_xy(void);

int main(void)
{
    e2e_take_xy();
    return 0;
}
