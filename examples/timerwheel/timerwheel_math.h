/*
 * timerwheel_math.h - the wheel's level/bucket arithmetic (kernel/time/
 * timer.c: LVL_* macros, calc_index(), calc_wheel_index(),
 * next_pending_bucket()).  Pure functions of their arguments: no locks,
 * no state; the unit tests call them directly.
 *
 * Level n has 64 buckets of 8^n jiffies each.  A timer goes to the finest
 * level whose range covers its delta and is rounded *up* to the level's
 * granularity, so it never fires early and fires at most one granule late.
 * There is no cascading: a timer never moves between levels once queued.
 */
#ifndef TIMERWHEEL_MATH_H
#define TIMERWHEEL_MATH_H

#include <stdint.h>

#define TW_LVL_CLK_SHIFT 3u                          /* each level 8x coarser */
#define TW_LVL_CLK_DIV (1u << TW_LVL_CLK_SHIFT)
#define TW_LVL_CLK_MASK (TW_LVL_CLK_DIV - 1u)
#define TW_LVL_BITS 6u
#define TW_LVL_SIZE (1u << TW_LVL_BITS)              /* 64 buckets per level */
#define TW_LVL_MASK (TW_LVL_SIZE - 1u)
#define TW_LVL_DEPTH 8u
#define TW_WHEEL_SIZE (TW_LVL_SIZE * TW_LVL_DEPTH)
#define TW_LVL_SHIFT(n) ((n) * TW_LVL_CLK_SHIFT)
#define TW_LVL_GRAN(n) (UINT64_C(1) << TW_LVL_SHIFT(n))
#define TW_LVL_OFFS(n) ((n) * TW_LVL_SIZE)
/* First delta that no longer fits level n-1 (n >= 1). */
#define TW_LVL_START(n) ((uint64_t)(TW_LVL_SIZE - 1) << (((n) - 1) * TW_LVL_CLK_SHIFT))
#define TW_TIMEOUT_CUTOFF TW_LVL_START(TW_LVL_DEPTH)
#define TW_TIMEOUT_MAX (TW_TIMEOUT_CUTOFF - TW_LVL_GRAN(TW_LVL_DEPTH - 1))
#define TW_NEXT_MAX_DELTA (UINT64_C(1) << 62)

/* Bucket of `expires` in level lvl, rounded up; *bexp: when that bucket expires. */
static inline unsigned tw_calc_index(uint64_t expires, unsigned lvl, uint64_t *bexp)
{
    expires = (expires >> TW_LVL_SHIFT(lvl)) + 1;
    *bexp = expires << TW_LVL_SHIFT(lvl);
    return TW_LVL_OFFS(lvl) + (unsigned)(expires & TW_LVL_MASK);
}

/* Bucket for a timer due at `expires` on a base whose next jiffy to run is clk. */
static inline unsigned tw_wheel_index(uint64_t expires, uint64_t clk, uint64_t *bexp)
{
    if (expires < clk) {                 /* already due: the very next bucket */
        *bexp = clk;
        return (unsigned)(clk & TW_LVL_MASK);
    }
    uint64_t delta = expires - clk;
    for (unsigned lvl = 0; lvl < TW_LVL_DEPTH; lvl++)
        if (delta < TW_LVL_START(lvl + 1))
            return tw_calc_index(expires, lvl, bexp);
    return tw_calc_index(clk + TW_TIMEOUT_MAX, TW_LVL_DEPTH - 1, bexp);
}

static inline unsigned tw_index_level(unsigned idx)
{
    return idx / TW_LVL_SIZE;
}

/* Distance from position pos to the next set bit of a level's map, wrapping; -1 if none. */
static inline int tw_next_pending_bucket(uint64_t map, unsigned pos)
{
    if (!map)
        return -1;
    uint64_t rot = pos ? (map >> pos) | (map << (64 - pos)) : map;
    return __builtin_ctzll(rot);
}

/*
 * When the earliest non-empty bucket expires, given the per-level pending
 * maps and the base's clk (kernel: __next_timer_interrupt()).
 */
static inline uint64_t tw_next_expiry_of(const uint64_t map[TW_LVL_DEPTH], uint64_t clk)
{
    uint64_t next = clk + TW_NEXT_MAX_DELTA;
    for (unsigned lvl = 0; lvl < TW_LVL_DEPTH; lvl++) {
        int pos = tw_next_pending_bucket(map[lvl], (unsigned)(clk & TW_LVL_MASK));
        unsigned lvl_clk = (unsigned)(clk & TW_LVL_CLK_MASK);
        if (pos >= 0) {
            uint64_t tmp = (clk + (uint64_t)pos) << TW_LVL_SHIFT(lvl);
            if (tmp < next)
                next = tmp;
            /* Due before the next level's next bucket could be: done. */
            if ((unsigned)pos <= ((TW_LVL_CLK_DIV - lvl_clk) & TW_LVL_CLK_MASK))
                break;
        }
        /* The next level's clock: round up unless on its boundary. */
        clk = (clk >> TW_LVL_CLK_SHIFT) + (lvl_clk ? 1 : 0);
    }
    return next;
}

#endif /* TIMERWHEEL_MATH_H */
