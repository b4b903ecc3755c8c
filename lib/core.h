/*
 * core.h - what the entry points (core.c, acquire.c, lifetime.c, waits.c,
 * api.c) see of the layers below: the global state and guard, the rules,
 * lazy records, the graph file.  Lower layers include the header of what
 * they use, never this one.
 */
#ifndef ULD_CORE_H
#define ULD_CORE_H

#include "fastpath.h"
#include "hooks.h"
#include "model/lazy.h"
#include "model/lock.h"
#include "model/state.h"
#include "model/thread.h"
#include "report/dump.h"
#include "rules/rules.h"

#endif
