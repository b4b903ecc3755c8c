/*
 * cond_signal_cached_cycle.c - cond_wait_for_cycle.c with a thousand
 * signals, all made holding big: the signals after the first take the
 * fast path, and waking cond still needs big.  Run at the same time, the
 * waiter sits in pthread_cond_wait holding big and the waker blocks on big
 * before it can signal.
 *
 * EXPECT: wait-for-cycle big cond
 */
#define WAKE_COND
#include "wake_cached_rounds.h"
