/*
 * state.h - the validator's global state and the guard every entry point
 * uses: a thread that is already inside the validator (or inside a signal
 * handler that interrupted it) passes straight through.  Defined in
 * state.c; the entry points (lib/core.c) start it and tear it down.
 */
#ifndef ULD_STATE_H
#define ULD_STATE_H

#include "lock.h"
#include "thread.h"

#include <pthread.h>

/* graph_lock protects the graphs, classes, the lock map's writers and the
 * stack depot. */
extern struct uld_mutex uld_graph_lock ULD_HIDDEN;
extern _Atomic int uld_state ULD_HIDDEN; /* ULD_STATE_* */
extern _Atomic int uld_untracked_locks ULD_HIDDEN; /* a limit made some locks invisible */

enum { ULD_STATE_OFF, ULD_STATE_INITIALISING, ULD_STATE_READY, ULD_STATE_FAILED };

extern _Atomic int uld_signal_handlers ULD_HIDDEN; /* a handler was installed (signal.c) */
extern int uld_watchdog_on;
extern int uld_forked_child;

/* The key whose destructor ends a thread's state (set by uld_thread_attach). */
extern pthread_key_t uld_thread_key ULD_HIDDEN;
struct uld_thread *uld_thread_attach(void) ULD_HIDDEN;
void uld_signal_thread_init(struct uld_thread *t) ULD_HIDDEN; /* signal.c */
/* signal.c: fold t's handler and mask into its chain-key context (sigctx). */
void uld_sigctx_update(struct uld_thread *t) ULD_HIDDEN;
/* signal.c: back to the context handler frame `depth` interrupted (the
 * frames above it are gone too). */
void uld_sigframe_pop_to(struct uld_thread *t, int depth) ULD_HIDDEN;

#endif
