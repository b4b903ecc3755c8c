/*
 * once_init_first_report.c - the process's first report comes from inside
 * a pthread_once initialiser that never returns (an ABBA deadlock; the
 * process is killed).  libdw is not loaded there (its debuginfod client
 * starts libraries through their own pthread_once), so the locks are named
 * module+offset, but the report is written before the thread blocks.
 *
 * HANGS: 3
 * EXPECT: lock-order-inversion once_init_first_report+0x* once_init_first_report+0x*
 */
#include "once_init_abba.h"

int main(void)
{
    deadlock_in_once();
    return 0;
}
