/*
 * stack.h - stack traces: capture with libunwind (slow path only), interned
 * in a depot so every edge stores a 32-bit id.  Symbolisation, at report
 * time only, is report/symbolize.h's.
 */
#ifndef ULD_STACK_H
#define ULD_STACK_H

#include "base/internal.h"

/* Frames of libulockdep itself, skipped at the top of every capture. */
void uld_stack_set_skip_range(uintptr_t lo, uintptr_t hi) ULD_HIDDEN;
/* Capture the calling thread's stack and intern it; 0 if unavailable.  graph_lock held. */
uint32_t uld_stack_capture(void) ULD_HIDDEN;
/* The same, dropping `skip` more frames (e.g. a signal frame) and keeping at most `max`. */
uint32_t uld_stack_capture_skip(int skip) ULD_HIDDEN;
uint32_t uld_stack_capture_limited(int skip, int max) ULD_HIDDEN;
/* uld_stack_capture_limited(0, max), telling where each kept frame's return
 * address is stored (slot[i], 0 if not in memory; stackmemo.c). */
uint32_t uld_stack_capture_slots(int max, uintptr_t *slot) ULD_HIDDEN;
/* Intern frames the caller assembled.  graph_lock held. */
uint32_t uld_stack_intern(const uintptr_t *frames, int n) ULD_HIDDEN;
/* Start of the function containing return address `ret` (from the unwind
 * tables, no symbols needed), else ret itself. */
uintptr_t uld_function_of(uintptr_t ret) ULD_HIDDEN;
/* Frames of an interned stack (immutable, safe without locks). */
int uld_stack_frames(uint32_t id, const uintptr_t **frames) ULD_HIDDEN;
long uld_stack_count(void) ULD_HIDDEN;
/* Redirect libunwind's validation pipe before its first use (unwind_fds.c);
 * 0 if its import table was not found.  Idempotent, cheap after the first. */
int uld_unwind_fds_ready(void) ULD_HIDDEN;

#endif
