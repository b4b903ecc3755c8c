/*
 * stats.c - what the validator did, like /proc/lockdep_stats: printed at
 * exit with stats=1.  Counters are per thread (no shared cache line is
 * written on the fast path) and summed here.
 */
#include "model/chain.h"
#include "base/config.h"
#include "dump.h"
#include "model/state.h"
#include "report.h"
#include "model/stack.h"

void uld_stats_print(int fd)
{
    struct uld_thread_totals tt;
    uld_threads_totals(&tt);
    uld_mutex_lock(&uld_graph_lock);
    long classes = uld_class_count(), live = uld_lockmap_live(), created = uld_lockmap_created();
    long lock_edges = uld_lock_graph.nedges, class_edges = uld_class_graph.nedges;
    long chains = uld_chain_count(), flushes = uld_chain_flushes(), stacks = uld_stack_count();
    struct uld_bfs_stats bfs;
    uld_bfs_stats(&bfs);
    uld_mutex_unlock(&uld_graph_lock);
    uint64_t lookups = tt.chain_hits + tt.chain_misses;
    unsigned long permille = lookups ? (unsigned long)(tt.chain_hits * 100000 / lookups) : 0;
    char mem[1024];
    struct uld_buf b;
    uld_buf_init(&b, mem, sizeof(mem), fd);
    uld_buf_printf(&b,
                   "ulockdep: stats: %ld lock classes, %ld locks created (%ld live), "
                   "%ld lock dependencies, %ld class dependencies\n"
                   "ulockdep: stats: %lu validations: chain-cache hit rate %lu.%03lu%% "
                   "(%lu hits, %lu misses), %ld chains cached, %ld cache flushes\n"
                   "ulockdep: stats: %lu cycle searches visited %lu nodes and %lu edges\n"
                   "ulockdep: stats: deepest held-lock stack %d, %u threads, slow path %lu.%03lu ms, "
                   "%ld stack traces, %lu KiB mapped, %ld reports suppressed\n",
                   classes, created, live, lock_edges, class_edges, (unsigned long)lookups,
                   permille / 1000, permille % 1000, (unsigned long)tt.chain_hits,
                   (unsigned long)tt.chain_misses, chains, flushes, bfs.searches, bfs.nodes,
                   bfs.edges, tt.max_depth, tt.threads,
                   (unsigned long)(tt.slow_ns / 1000000), (unsigned long)(tt.slow_ns / 1000 % 1000),
                   stacks, (unsigned long)(uld_arena_bytes() / 1024),
                   uld_report_suppressed_count());
    uld_buf_flush(&b);
}
