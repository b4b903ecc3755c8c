/*
 * test_timerwheel.c - cmocka tests of the timer wheel: the level math and
 * next-expiry search against brute force, expiry (never early, lateness
 * bounded by the level's granularity), cancellation and re-arming,
 * migration off a dead CPU, idle bases run by a busy CPU, pulling, and
 * timer_delete_sync waiting for a running callback.  Single-threaded
 * except the del_sync test, which uses atomics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "timerwheel.h"
#include "timerwheel_math.h"

#define NT 2000

struct ttimer {
    struct tw_timer t;
    struct tw_wheel *w;
    uint64_t expires;         /* as armed */
    uint64_t gran;            /* allowed lateness */
    uint64_t fired_at;
    int fired;
};

static struct ttimer timers[NT];

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void on_fire(struct tw_timer *t)
{
    struct ttimer *x = (struct ttimer *)((char *)t - offsetof(struct ttimer, t));
    x->fired++;
    x->fired_at = tw_jiffies(x->w);
}

/* The finest level whose range holds delta, and so its granularity. */
static uint64_t gran_for(uint64_t delta)
{
    for (unsigned lvl = 0; lvl < TW_LVL_DEPTH; lvl++)
        if (delta < TW_LVL_START(lvl + 1))
            return TW_LVL_GRAN(lvl);
    return TW_LVL_GRAN(TW_LVL_DEPTH - 1);
}

static void arm(struct tw_wheel *w, unsigned cpu, int i, uint64_t delta)
{
    struct ttimer *x = &timers[i];
    x->w = w;
    x->expires = tw_jiffies(w) + delta;
    x->gran = gran_for(delta);
    assert_true(tw_mod_timer(w, cpu, &x->t, x->expires) >= 0);
}

static void init_timers(void)
{
    static bool initialised;
    for (int i = 0; i < NT; i++) {
        if (initialised)
            tw_timer_destroy(&timers[i].t);     /* a new lifetime for the validator */
        timers[i] = (struct ttimer){0};
        tw_timer_init(&timers[i].t, on_fire, "test_timer");
    }
    initialised = true;
}

static void test_index_math(void **state)
{
    (void)state;
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < 200000; i++) {
        uint64_t clk = rnd(&s) % (1ull << 40), delta = rnd(&s) % (TW_TIMEOUT_CUTOFF - 1), bexp;
        unsigned idx = tw_wheel_index(clk + delta, clk, &bexp);
        unsigned lvl = tw_index_level(idx);
        assert_true(idx < TW_WHEEL_SIZE);
        assert_true(bexp > clk + delta);                         /* never early */
        assert_true(bexp - (clk + delta) <= TW_LVL_GRAN(lvl));   /* one granule late at most */
        assert_int_equal(TW_LVL_GRAN(lvl), gran_for(delta));     /* the finest level that fits */
        assert_int_equal(idx % TW_LVL_SIZE, (bexp >> TW_LVL_SHIFT(lvl)) & TW_LVL_MASK);
    }
    uint64_t bexp;
    assert_int_equal(tw_wheel_index(5, 10, &bexp), 10);          /* overdue: next bucket */
    assert_int_equal(bexp, 10);
    assert_int_equal(tw_next_pending_bucket(0, 3), -1);
    assert_int_equal(tw_next_pending_bucket(1ull << 2, 3), 63);  /* wraps around */
    assert_int_equal(tw_next_pending_bucket(1ull << 5, 3), 2);
}

/* The next-expiry search equals the earliest queued bucket, for any clk up to it. */
static void test_next_expiry_search(void **state)
{
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int round = 0; round < 20000; round++) {
        uint64_t map[TW_LVL_DEPTH] = {0}, clk = rnd(&s) % (1ull << 32), best = UINT64_MAX;
        int n = 1 + (int)(rnd(&s) % 6);
        for (int i = 0; i < n; i++) {
            uint64_t bexp, delta = rnd(&s) % (1ull << (3 * (1 + rnd(&s) % 7)));
            unsigned idx = tw_wheel_index(clk + delta, clk, &bexp);
            map[idx / TW_LVL_SIZE] |= 1ull << (idx % TW_LVL_SIZE);
            if (bexp < best)
                best = bexp;
        }
        assert_int_equal(tw_next_expiry_of(map, clk), best);
        uint64_t later = clk + rnd(&s) % (best - clk + 1);       /* clk moved on, nothing due yet */
        assert_int_equal(tw_next_expiry_of(map, later), best);
    }
    uint64_t empty[TW_LVL_DEPTH] = {0};
    assert_true(tw_next_expiry_of(empty, 100) > (1ull << 60));
}

static void check_fired_in_bounds(int n)
{
    for (int i = 0; i < n; i++) {
        assert_int_equal(timers[i].fired, 1);
        assert_true(timers[i].fired_at >= timers[i].expires);
        assert_true(timers[i].fired_at - timers[i].expires <= timers[i].gran);
    }
}

static void test_expiry_never_early_bounded_late(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(1);
    uint64_t s = 12345, maxexp = 0;
    init_timers();
    for (int i = 0; i < NT; i++) {
        /* arm at scattered times, deltas spanning levels 0..5; punctual ticks */
        if (i % 50 == 0) {
            for (uint64_t k = rnd(&s) % 40; k > 0; k--) {
                tw_advance(w, 1);
                tw_run_cpu(w, 0);
            }
        }
        arm(w, 0, i, 1 + rnd(&s) % (1ull << (3 * (1 + i % 6))));
        if (timers[i].expires > maxexp)
            maxexp = timers[i].expires;
    }
    while (tw_jiffies(w) <= maxexp + TW_LVL_GRAN(6)) {
        tw_advance(w, 1);
        tw_run_cpu(w, 0);
        if (tw_jiffies(w) % 4096 == 0 && tw_pending_count(w, 0) == 0)
            break;
    }
    check_fired_in_bounds(NT);
    struct tw_stats st;
    tw_get_stats(w, &st);
    assert_int_equal(st.fired, NT);
    assert_int_equal(st.early, 0);
    assert_int_equal(st.coarse, 0);
    tw_destroy(w);
}

static void test_big_jump_fires_all_due_only(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(1);
    init_timers();
    for (int i = 0; i < 100; i++)
        arm(w, 0, i, 10 + (uint64_t)i * 100);   /* due at 10 .. 9910 */
    tw_advance(w, 5000);
    tw_run_cpu(w, 0);
    for (int i = 0; i < 100; i++) {
        if (timers[i].expires + timers[i].gran <= 5000)
            assert_int_equal(timers[i].fired, 1);      /* its bucket is due */
        if (timers[i].expires >= 5000)
            assert_int_equal(timers[i].fired, 0);      /* not due: never early */
    }
    tw_advance(w, 10000);
    tw_run_cpu(w, 0);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(timers[i].fired, 1);
        assert_true(timers[i].fired_at >= timers[i].expires);
    }
    tw_destroy(w);
}

static void test_cancel_and_rearm(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(1);
    init_timers();
    for (int i = 0; i < 1000; i++)
        arm(w, 0, i, 1 + (uint64_t)i);
    assert_int_equal(tw_pending_count(w, 0), 1000);
    for (int i = 0; i < 1000; i += 2)
        assert_int_equal(tw_del_timer(w, &timers[i].t), 1);
    assert_int_equal(tw_del_timer(w, &timers[0].t), 0);          /* already cancelled */
    assert_int_equal(tw_del_timer_sync(w, &timers[2].t), 0);
    assert_false(tw_timer_pending(w, &timers[0].t));
    assert_true(tw_timer_pending(w, &timers[1].t));
    assert_int_equal(tw_pending_count(w, 0), 500);
    /* Re-arming a pending timer moves its expiry: returns 1, fires at the new time. */
    timers[1].expires = 5000;
    timers[1].gran = gran_for(5000);
    assert_int_equal(tw_mod_timer(w, 0, &timers[1].t, 5000), 1);
    tw_advance(w, 2000);
    tw_run_cpu(w, 0);
    assert_int_equal(timers[1].fired, 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(timers[i].fired, i % 2 && i != 1 ? 1 : 0);
    tw_advance(w, 4000);
    tw_run_cpu(w, 0);
    assert_int_equal(timers[1].fired, 1);
    assert_true(timers[1].fired_at >= 5000);
    struct tw_stats st;
    tw_get_stats(w, &st);
    assert_int_equal(st.cancelled, 500);
    assert_int_equal(st.fired, 500);
    assert_int_equal(st.armed, 1001);
    tw_destroy(w);
}

static void test_migration_keeps_every_timer(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(3);
    uint64_t s = 777;
    init_timers();
    tw_advance(w, 100);
    for (int i = 0; i < 600; i++)
        arm(w, 1 + (unsigned)i % 2, i, 1 + rnd(&s) % 20000);
    tw_advance(w, 50);
    tw_run_cpu(w, 1);                     /* cpu 2's base lags behind */
    unsigned p1 = tw_pending_count(w, 1), p2 = tw_pending_count(w, 2);
    assert_int_equal(tw_cpu_dead(w, 1, 0), (int)p1);
    assert_int_equal(tw_cpu_dead(w, 2, 0), (int)p2);
    assert_int_equal(tw_cpu_dead(w, 2, 0), 0);                   /* already dead: nothing left */
    assert_int_equal(tw_pending_count(w, 0), p1 + p2);
    assert_false(tw_cpu_online(w, 1));
    assert_int_equal(tw_mod_timer(w, 1, &timers[0].t, 1), -ENODEV);
    assert_int_equal(tw_cpu_dead(w, 0, 1), -EINVAL);             /* target offline */
    for (int k = 0; k < 25000 && tw_pending_count(w, 0); k++) {
        tw_advance(w, 1);
        tw_run_cpu(w, 0);
    }
    for (int i = 0; i < 600; i++) {
        assert_int_equal(timers[i].fired, 1);
        assert_true(timers[i].fired_at >= timers[i].expires);
    }
    struct tw_stats st;
    tw_get_stats(w, &st);
    assert_int_equal(st.migrated, p1 + p2);
    assert_int_equal(st.early, 0);
    /* The CPU comes back: its base works again. */
    assert_int_equal(tw_cpu_prepare(w, 1), 0);
    assert_true(tw_cpu_online(w, 1));
    arm(w, 1, 0, 3);
    tw_advance(w, 10);
    tw_run_cpu(w, 1);
    assert_int_equal(timers[0].fired, 2);
    tw_destroy(w);
}

static void test_idle_base_run_by_busy_cpu(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(2);
    init_timers();
    for (int i = 0; i < 10; i++)
        arm(w, 1, i, 20 + (uint64_t)i);
    /* cpu 1 is busy (just not ticking now): cpu 0 leaves its timers alone */
    tw_advance(w, 100);
    assert_int_equal(tw_run_cpu(w, 0), 0);
    assert_int_equal(timers[0].fired, 0);
    /* cpu 1 goes idle: the next expiry it reports is the first bucket */
    uint64_t next = tw_idle_enter(w, 1);
    assert_true(next >= 20 && next <= 21);
    assert_true(tw_base_idle(w, 1));
    assert_int_equal(tw_run_cpu(w, 0), 10);
    for (int i = 0; i < 10; i++)
        assert_int_equal(timers[i].fired, 1);
    struct tw_stats st;
    tw_get_stats(w, &st);
    assert_int_equal(st.remote_fired, 10);
    /* not due yet: the busy CPU does not touch the idle base */
    tw_idle_exit(w, 1);
    arm(w, 1, 11, 50);
    tw_idle_enter(w, 1);
    tw_advance(w, 10);
    tw_run_cpu(w, 0);
    assert_int_equal(timers[11].fired, 0);
    tw_idle_exit(w, 1);
    assert_false(tw_base_idle(w, 1));
    tw_destroy(w);
}

static void test_pull_and_cross_cpu_rearm(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(2);
    init_timers();
    for (int i = 0; i < 20; i++)
        arm(w, 1, i, 100 + (uint64_t)i);
    assert_int_equal(tw_pull_timers(w, 0, 1), 20);
    assert_int_equal(tw_pending_count(w, 0), 20);
    assert_int_equal(tw_pending_count(w, 1), 0);
    /* re-arming from cpu 1 moves a timer back to cpu 1 (the local base) */
    assert_int_equal(tw_mod_timer(w, 1, &timers[0].t, 200), 1);
    assert_int_equal(tw_pending_count(w, 0), 19);
    assert_int_equal(tw_pending_count(w, 1), 1);
    assert_int_equal(tw_pull_timers(w, 1, 1), -EINVAL);
    tw_advance(w, 300);
    tw_run_cpu(w, 0);
    tw_run_cpu(w, 1);
    for (int i = 0; i < 20; i++)
        assert_int_equal(timers[i].fired, 1);
    tw_destroy(w);
}

/* ---- timer_delete_sync waits for a running callback ---------------------- */

static _Atomic int cb_started, cb_finished;

static void slow_fire(struct tw_timer *t)
{
    (void)t;
    atomic_store(&cb_started, 1);
    usleep(100 * 1000);
    atomic_store(&cb_finished, 1);
}

static void *ticker(void *arg)
{
    tw_run_cpu(arg, 0);
    return NULL;
}

static void test_del_sync_waits_for_callback(void **state)
{
    (void)state;
    struct tw_wheel *w = tw_create(1);
    struct tw_timer t;
    pthread_t th;
    tw_timer_init(&t, slow_fire, "slow_timer");
    assert_int_equal(tw_mod_timer(w, 0, &t, 1), 0);
    tw_advance(w, 5);
    assert_int_equal(pthread_create(&th, NULL, ticker, w), 0);
    while (!atomic_load(&cb_started))
        usleep(1000);
    assert_int_equal(tw_del_timer(w, &t), 0);          /* not pending: it is running */
    assert_int_equal(atomic_load(&cb_finished), 0);
    assert_int_equal(tw_del_timer_sync(w, &t), 0);
    assert_int_equal(atomic_load(&cb_finished), 1);    /* returned only after the callback */
    pthread_join(th, NULL);
    tw_timer_destroy(&t);
    tw_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_math),
        cmocka_unit_test(test_next_expiry_search),
        cmocka_unit_test(test_expiry_never_early_bounded_late),
        cmocka_unit_test(test_big_jump_fires_all_due_only),
        cmocka_unit_test(test_cancel_and_rearm),
        cmocka_unit_test(test_migration_keeps_every_timer),
        cmocka_unit_test(test_idle_base_run_by_busy_cpu),
        cmocka_unit_test(test_pull_and_cross_cpu_rearm),
        cmocka_unit_test(test_del_sync_waits_for_callback),
    };
    return cmocka_run_group_tests_name("examples.timerwheel", tests, NULL, NULL);
}
