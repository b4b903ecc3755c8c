/*
 * stackmemo.h - a thread's recent stacks by where the program called the
 * validator, checked against the return addresses on its stack before
 * reuse: a new dependency edge made again from the same call chain (locks
 * created all the time, each a new graph node) costs no unwinding.
 */
#ifndef ULD_STACKMEMO_H
#define ULD_STACKMEMO_H

#include "thread.h"

/* The validator is entered from the program at this depth: where the
 * stacks captured until the matching clear may be memoized.  Not in a
 * signal handler (the memo is bypassed there). */
static inline void uld_stack_anchor_set(struct uld_thread *t, uintptr_t sp)
{
    t->stack_anchor = t->in_signal ? 0 : sp;
}

static inline void uld_stack_anchor_clear(struct uld_thread *t)
{
    t->stack_anchor = 0;
}

/* The calling thread's stack (uld_stack_capture()), the memoized one when
 * the same call chain at ip was captured before.  graph_lock held. */
uint32_t uld_stack_capture_memo(struct uld_thread *t, uintptr_t ip) ULD_HIDDEN;

/* A stack whose first `want` frames are uld_stack_capture_limited(0, want)'s
 * (it may hold more): the memoized one under an anchor.  graph_lock held. */
uint32_t uld_stack_capture_prefix(uintptr_t ip, int want) ULD_HIDDEN;

#endif
