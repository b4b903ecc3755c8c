/*
 * fleet.h - which processes of a `ulockdep run --out DIR` left which
 * outputs: each output file names its process in its first record, so the
 * processes that left reports but no graph dump (killed, sandboxed, or
 * ended by abort() before exit) can be counted.  Single-threaded.
 */
#ifndef ULD_TOOL_FLEET_H
#define ULD_TOOL_FLEET_H

#include "util.h"

/* The pid named by the first line of a report or graph file, or -1. */
long fleet_first_pid(const char *path);

/* Pids of the files ending in `ext` in the directories among args[0..n)
 * (files given by name are not looked at); sorted, malloc'd in *out. */
size_t fleet_pids(char *const *args, int n, const char *ext, long **out);

/* How many of pids[0..n) are not in have[0..nhave) (sorted). */
long fleet_missing(const long *pids, size_t n, const long *have, size_t nhave);

#endif
