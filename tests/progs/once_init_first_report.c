/*
 * once_init_first_report.c - the process's first report comes from inside
 * a pthread_once initialiser that never returns (an ABBA deadlock; the
 * process is killed).  libdw is loaded there without its debuginfod client
 * (which starts libraries through their own pthread_once), so the report,
 * written before the thread blocks, names its locks.
 *
 * HANGS: 3
 * EXPECT: lock-order-inversion lock_a lock_b
 */
#include "once_init_abba.h"

int main(void)
{
    deadlock_in_once();
    return 0;
}
