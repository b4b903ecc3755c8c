/*
 * stackmemo.c - a thread's stacks memoized by where the program entered
 * the validator.
 *
 * Edges are per lock instance, and programs create locks all the time
 * (unbound's cache entries): the same acquisition in the same thread keeps
 * making new edges, each with a capture of the same stack (about 3,000
 * instructions of unwinding, with graph_lock held).  An entry is keyed by
 * the acquisition's return address and the stack pointer where the
 * validator was entered (same call chain, same depth), and before reuse
 * every frame is checked where it lies: the word at each recorded return
 * address slot must still be that frame.  Equal slots from the innermost
 * frame outwards mean the same functions at the same depths, so a hit is
 * the stack a capture would give (docs/design.md, "Edge stacks").  The
 * reads stay above the entry's stack pointer, in live frames of the
 * current chain.
 *
 * A module unload rewrites the depot's frames (uld_stack_retire_range):
 * they no longer equal what is on the stack, so the entry misses and the
 * stack is captured again.  A reused thread state keeps its entries but
 * they name another serial.  Everything runs under graph_lock, never in a
 * signal handler (no anchor there).
 */
#include "stackmemo.h"
#include "stack.h"
#include "base/config.h"

/* A set of ways for (ip, anchor): the same entry point reached through
 * different chains (at equal depth) keeps one stack per way. */
static struct uld_stack_memo *memo_set(struct uld_thread *t, uintptr_t ip, uintptr_t anchor)
{
    uint64_t h = ((uint64_t)ip * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)anchor * 0xc2b2ae3d27d4eb4full);
    return &t->stack_memo[(h >> 40) % (ULD_STACK_MEMO / ULD_STACK_MEMO_WAYS) * ULD_STACK_MEMO_WAYS];
}

static uintptr_t memo_frame_slot(const struct uld_stack_memo *m, int i)
{
    return m->slot0 + (i ? m->above[i - 1] : 0);
}

/* Is m's stack the one on this thread's stack now? */
static int memo_holds(const struct uld_stack_memo *m, uint32_t serial, uintptr_t ip,
                      uintptr_t anchor)
{
    const uintptr_t *f;
    if (m->serial != serial || m->ip != ip || m->anchor != anchor || !m->stack)
        return 0;
    int n = uld_stack_frames(m->stack, &f);
    for (int i = 0; i < n; i++)
        if (*(const uintptr_t *)memo_frame_slot(m, i) != f[i])
            return 0;
    return n > 0;
}

/* Remember a capture whose every frame was read from the stack, in order. */
static void memo_fill(struct uld_stack_memo *m, uint32_t serial, uintptr_t ip,
                      uintptr_t anchor, uint32_t id, const uintptr_t *slot)
{
    const uintptr_t *f;
    int n = uld_stack_frames(id, &f);
    m->stack = 0;
    if (n <= 0 || n > ULD_STACK_MEMO_FRAMES || slot[0] <= anchor)
        return;
    for (int i = 1; i < n; i++)
        if (slot[i] <= slot[i - 1] || slot[i] - slot[0] > UINT32_MAX)
            return;
    m->serial = serial;
    m->ip = ip;
    m->anchor = anchor;
    m->slot0 = slot[0];
    for (int i = 1; i < n; i++)
        m->above[i - 1] = (uint32_t)(slot[i] - slot[0]);
    m->stack = id;
}

uint32_t uld_stack_capture_memo(struct uld_thread *t, uintptr_t ip)
{
    uintptr_t anchor = t->stack_anchor;
    int max = (int)uld_config.max_frames;
    if (!anchor || t->in_signal || max > ULD_STACK_MEMO_FRAMES)
        return uld_stack_capture();
    struct uld_stack_memo *set = memo_set(t, ip, anchor), *victim = NULL;
    for (int w = 0; w < ULD_STACK_MEMO_WAYS; w++) {
        if (memo_holds(&set[w], t->serial, ip, anchor))
            return set[w].stack;
        if (!victim && (set[w].serial != t->serial || !set[w].stack))
            victim = &set[w];
    }
    if (!victim) /* all taken: replace in turn */
        victim = &set[t->stack_memo_next++ % ULD_STACK_MEMO_WAYS];
    uintptr_t slot[ULD_STACK_MEMO_FRAMES];
    uint32_t id = uld_stack_capture_slots(max, slot);
    memo_fill(victim, t->serial, ip, anchor, id, slot);
    return id;
}

uint32_t uld_stack_capture_prefix(uintptr_t ip, int want)
{
    struct uld_thread *t = uld_self;
    if (t && t != ULD_THREAD_DEAD && t->stack_anchor && (int)uld_config.max_frames >= want)
        return uld_stack_capture_memo(t, ip);
    return uld_stack_capture_limited(0, want);
}
