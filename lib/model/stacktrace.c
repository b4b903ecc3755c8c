/*
 * stacktrace.c - capture with libunwind and a depot of interned stacks.
 * Stacks are immutable once interned and never freed, so reports read them
 * without graph_lock; the id -> stack index is a two-level array that never
 * moves.  Capture and interning run under graph_lock.  libunwind runs
 * without its validation pipe (unwind_fds.c).
 */
#define UNW_LOCAL_ONLY
#include "base/config.h"
#include "modules.h"
#include "stack.h"
#include "base/uthash_arena.h"

#include <libunwind.h>

#define DEPOT_CHUNK 4096
#define DEPOT_MAX_CHUNKS 512 /* 2M stacks */

struct depot_entry {
    uint64_t hash;
    uint32_t id, nframes;
    UT_hash_handle hh;
    uintptr_t frames[];
};

static struct depot_entry *by_hash;
static struct depot_entry **by_id[DEPOT_MAX_CHUNKS];
static uint32_t next_stack_id = 1;
static uintptr_t skip_lo, skip_hi;

/* unw_backtrace() is fast per call but builds a per-thread frame cache on
 * its first call in each thread (256 KiB written, then unmapped at thread
 * exit): about 1 ms, the whole cost of a short-lived thread.  A thread's
 * first captures step the unwinder instead; one that keeps capturing
 * switches to unw_backtrace() once the cache pays for itself. */
#define STEP_CAPTURES 64
static __thread unsigned thread_captures __attribute__((tls_model("initial-exec")));

void uld_stack_set_skip_range(uintptr_t lo, uintptr_t hi)
{
    skip_lo = lo;
    skip_hi = hi;
}

long uld_stack_count(void)
{
    return (long)next_stack_id - 1;
}

static uint64_t hash_frames(const uintptr_t *f, int n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++) {
        h ^= f[i];
        h *= 0x100000001b3ull;
        h ^= h >> 32;
    }
    return h;
}

static uint32_t depot_intern(const uintptr_t *frames, int n)
{
    uint64_t h = hash_frames(frames, n);
    struct depot_entry *e;
    HASH_FIND(hh, by_hash, &h, sizeof(h), e);
    if (e && (int)e->nframes == n && !memcmp(e->frames, frames, (size_t)n * sizeof(*frames)))
        return e->id;
    uint32_t id = next_stack_id;
    uint32_t chunk = id / DEPOT_CHUNK;
    if (chunk >= DEPOT_MAX_CHUNKS)
        return 0;
    if (!by_id[chunk] && !(by_id[chunk] = uld_alloc(DEPOT_CHUNK * sizeof(*by_id[0]))))
        return 0;
    e = uld_alloc(sizeof(*e) + (size_t)n * sizeof(*frames));
    if (!e)
        return 0;
    e->hash = h;
    e->id = id;
    e->nframes = (uint32_t)n;
    memcpy(e->frames, frames, (size_t)n * sizeof(*frames));
    struct depot_entry *dup;
    HASH_FIND(hh, by_hash, &h, sizeof(h), dup);
    if (!dup) /* on a rare hash collision the new stack is simply not findable by hash */
        HASH_ADD(hh, by_hash, hash, sizeof(e->hash), e);
    atomic_thread_fence(memory_order_release);
    by_id[chunk][id % DEPOT_CHUNK] = e;
    next_stack_id++;
    return id;
}

uint32_t uld_stack_intern(const uintptr_t *frames, int n)
{
    return n > 0 ? depot_intern(frames, n) : 0;
}

uintptr_t uld_function_of(uintptr_t ret)
{
    unw_proc_info_t pi;
    uld_unwind_fds_ready();
    /* ret - 1: a call may be the last instruction of its function */
    if (ret && unw_get_proc_info_by_ip(unw_local_addr_space, (unw_word_t)(ret - 1), &pi,
                                       NULL) == 0 && pi.start_ip)
        return (uintptr_t)pi.start_ip;
    return ret;
}

uint32_t uld_stack_capture(void)
{
    return uld_stack_capture_skip(0);
}

uint32_t uld_stack_capture_skip(int skip)
{
    return uld_stack_capture_limited(skip, (int)uld_config.max_frames);
}

/* Where the cursor's frame keeps its return address, 0 if not in memory. */
static uintptr_t saved_at(unw_cursor_t *cursor)
{
    unw_save_loc_t loc;
    return unw_get_save_loc(cursor, UNW_REG_IP, &loc) == 0 && loc.type == UNW_SLT_MEMORY
               ? (uintptr_t)loc.u.addr
               : 0;
}

/* The return addresses of our callers, as unw_backtrace() gives them; the
 * first is in this file (inside the skip range, like unw_backtrace's own).
 * With `slot`, also where each was read from (saved_at). */
static int __attribute__((noinline)) step_backtrace(void **raw, uintptr_t *slot, int want)
{
    unw_context_t uc;
    unw_cursor_t cursor;
    unw_word_t ip;
    int n = 0;
    if (unw_getcontext(&uc) < 0 || unw_init_local(&cursor, &uc) < 0)
        return 0;
    while (n < want && unw_step(&cursor) > 0 && unw_get_reg(&cursor, UNW_REG_IP, &ip) == 0 && ip) {
        if (slot)
            slot[n] = saved_at(&cursor);
        raw[n++] = (void *)(uintptr_t)ip;
    }
    return n;
}

static int capture_raw(void **raw, int want)
{
    if (thread_captures < STEP_CAPTURES) {
        thread_captures++;
        return step_backtrace(raw, NULL, want);
    }
    return unw_backtrace(raw, want);
}

/* Our callers' frames outside the skip range, dropping `skip` more, at
 * most `max`; with `slot`, by stepping (unw_backtrace does not tell where
 * it read a frame), also where each kept frame's return address lay. */
static uint32_t capture(int skip, int max, uintptr_t *slot)
{
    void *raw[ULD_MAX_FRAMES + 16];
    uintptr_t raw_slot[ULD_MAX_FRAMES + 16];
    uintptr_t frames[ULD_MAX_FRAMES];
    /* unwinding is the cost: stop once enough frames outside us are in */
    int want = max + skip + 8 < (int)ULD_ARRAY_SIZE(raw) ? max + skip + 8 : (int)ULD_ARRAY_SIZE(raw);
    uld_unwind_fds_ready();
    int n = slot ? step_backtrace(raw, raw_slot, want) : capture_raw(raw, want);
    int k = 0;
    if (max > ULD_MAX_FRAMES)
        max = ULD_MAX_FRAMES;
    /* our own frames (wrappers, the signal trampoline) are noise in reports */
    for (int i = 0; i < n && k < max; i++)
        if (((uintptr_t)raw[i] < skip_lo || (uintptr_t)raw[i] >= skip_hi) && skip-- <= 0) {
            if (slot)
                slot[k] = raw_slot[i];
            frames[k++] = (uintptr_t)raw[i];
        }
    return k ? depot_intern(frames, k) : 0;
}

uint32_t uld_stack_capture_limited(int skip, int max)
{
    return capture(skip, max, NULL);
}

uint32_t uld_stack_capture_slots(int max, uintptr_t *slot)
{
    return capture(0, max, slot);
}

int uld_stack_frames(uint32_t id, const uintptr_t **frames)
{
    if (id == 0 || id / DEPOT_CHUNK >= DEPOT_MAX_CHUNKS || !by_id[id / DEPOT_CHUNK])
        return 0;
    struct depot_entry *e = by_id[id / DEPOT_CHUNK][id % DEPOT_CHUNK];
    if (!e)
        return 0;
    *frames = e->frames;
    return (int)e->nframes;
}

/*
 * A module was unloaded: its frames become unloaded addresses (modules.h).
 * Readers may be printing a stack meanwhile; each frame is one aligned
 * word, so they see it before or after.  A rewritten stack is rehashed, so
 * an identical capture in a module loaded later at these addresses is a new
 * stack, not this one.  graph_lock held.
 */
void uld_stack_retire_range(uintptr_t lo, uintptr_t hi, unsigned index)
{
    for (uint32_t id = 1; id < next_stack_id; id++) {
        struct depot_entry *e = by_id[id / DEPOT_CHUNK][id % DEPOT_CHUNK];
        int changed = 0;
        for (uint32_t i = 0; i < e->nframes; i++)
            if (e->frames[i] >= lo && e->frames[i] < hi) {
                __atomic_store_n(&e->frames[i], uld_addr_mark_unloaded(e->frames[i], index),
                                 __ATOMIC_RELAXED);
                changed = 1;
            }
        if (!changed)
            continue;
        struct depot_entry *cur;
        HASH_FIND(hh, by_hash, &e->hash, sizeof(e->hash), cur);
        if (cur == e)
            HASH_DEL(by_hash, e);
        e->hash = hash_frames(e->frames, (int)e->nframes);
        HASH_FIND(hh, by_hash, &e->hash, sizeof(e->hash), cur);
        if (!cur)
            HASH_ADD(hh, by_hash, hash, sizeof(e->hash), e);
    }
}
