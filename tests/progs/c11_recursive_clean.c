/*
 * c11_recursive_clean.c - mtx_init(mtx_plain | mtx_recursive) and
 * (mtx_timed | mtx_recursive) give recursive mutexes: their owner may take
 * them again (mtx_lock, mtx_timedlock, mtx_trylock all succeed) and must
 * release them as often.  The validator must know their type from
 * mtx_init: no self-deadlock, no unlock-not-held.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <threads.h>

static mtx_t rec_plain, rec_timed;

int main(void)
{
    CHECK(mtx_init(&rec_plain, mtx_plain | mtx_recursive) == thrd_success);
    CHECK(mtx_init(&rec_timed, mtx_timed | mtx_recursive) == thrd_success);
    struct timespec soon = in_ms(CLOCK_REALTIME, 1000);
    CHECK(mtx_lock(&rec_plain) == thrd_success);
    CHECK(mtx_lock(&rec_plain) == thrd_success);
    CHECK(mtx_trylock(&rec_plain) == thrd_success);
    CHECK(mtx_timedlock(&rec_timed, &soon) == thrd_success);
    CHECK(mtx_timedlock(&rec_timed, &soon) == thrd_success);
    CHECK(mtx_unlock(&rec_timed) == thrd_success);
    CHECK(mtx_unlock(&rec_timed) == thrd_success);
    for (int i = 0; i < 3; i++)
        CHECK(mtx_unlock(&rec_plain) == thrd_success);
    mtx_destroy(&rec_timed);
    mtx_destroy(&rec_plain);
    return 0;
}
