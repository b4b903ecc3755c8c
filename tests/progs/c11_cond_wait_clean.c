/*
 * c11_cond_wait_clean.c - cond_wait_clean.c written with C11 <threads.h>:
 * a producer and a consumer share a counter under lock_m, with cnd_wait,
 * cnd_signal and a final cnd_broadcast.
 *
 * lock_m is the only lock: cnd_wait releases it and takes it back, which
 * must be modelled as a release and a fresh acquisition with nothing else
 * held: no edge, no self-deadlock, no unlock-not-held for the mtx_unlock
 * that follows the wait.  No report.
 *
 * EXPECT: none
 */
#include "progs.h"

#include <threads.h>

#define ITEMS 1000

static mtx_t lock_m;
static cnd_t ready, space;
static int queued;

static int producer(void *arg)
{
    for (int i = 0; i < ITEMS; i++) {
        CHECK(mtx_lock(&lock_m) == thrd_success);
        while (queued >= 4)
            CHECK(cnd_wait(&space, &lock_m) == thrd_success);
        queued++;
        CHECK(cnd_signal(&ready) == thrd_success);
        CHECK(mtx_unlock(&lock_m) == thrd_success);
    }
    return arg != NULL;
}

static int consumer(void *arg)
{
    for (int i = 0; i < ITEMS; i++) {
        CHECK(mtx_lock(&lock_m) == thrd_success);
        while (queued == 0)
            CHECK(cnd_wait(&ready, &lock_m) == thrd_success);
        queued--;
        CHECK(cnd_broadcast(&space) == thrd_success);
        CHECK(mtx_unlock(&lock_m) == thrd_success);
    }
    return arg ? 6 : 5;
}

int main(void)
{
    CHECK(mtx_init(&lock_m, mtx_plain) == thrd_success);
    CHECK(cnd_init(&ready) == thrd_success);
    CHECK(cnd_init(&space) == thrd_success);
    thrd_t c, p;
    int res = -1;
    CHECK(thrd_create(&c, consumer, NULL) == thrd_success);
    CHECK(thrd_create(&p, producer, NULL) == thrd_success);
    CHECK(thrd_join(p, &res) == thrd_success && res == 0);
    CHECK(thrd_join(c, &res) == thrd_success && res == 5);
    CHECK(queued == 0);
    cnd_destroy(&space);
    cnd_destroy(&ready);
    mtx_destroy(&lock_m);
    return 0;
}
