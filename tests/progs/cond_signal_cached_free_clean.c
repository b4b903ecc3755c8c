/*
 * cond_signal_cached_free_clean.c - cond_signal_cached_cycle.c's clean
 * twin: after the thousand signals made holding big, the waker signals
 * once more holding only lock_m.  That signal has a key of its own (the
 * locks held differ), so it is checked, not taken for the cached ones:
 * waking cond does not need big after all.  No report.
 *
 * EXPECT: none
 */
#define WAKE_COND
#define WAKE_FREE_LAST
#include "wake_cached_rounds.h"
