/*
 * graph.h - dependency graphs.  Two graphs share this code: one whose nodes
 * are lock instances (a cycle there is an error) and one whose nodes are
 * lock classes (a cycle there that no instance cycle explains is a warning).
 * An edge A -> B means "B was acquired while A was held".  All of it is
 * protected by graph_lock (core.c).
 */
#ifndef ULD_GRAPH_H
#define ULD_GRAPH_H

#include "base/uthash_arena.h"

/*
 * Dependency types, after the kernel's recursive-read model: the source was
 * held Exclusively or Shared; the target was acquired as a Recursive reader
 * (never waits for a waiting writer) or Non-recursively (may wait).  A cycle
 * deadlocks unless, at some lock, the thread arriving as a recursive reader
 * meets a thread holding it shared.
 */
enum {
    ULD_DEP_EN = 1u << 0,
    ULD_DEP_ER = 1u << 1,
    ULD_DEP_SN = 1u << 2,
    ULD_DEP_SR = 1u << 3,
};
#define ULD_DEP_SRC_EXCL (ULD_DEP_EN | ULD_DEP_ER)
#define ULD_DEP_DST_NONREC (ULD_DEP_EN | ULD_DEP_SN)

static inline unsigned uld_dep_type(int src_shared, int dst_recursive_read)
{
    return 1u << ((src_shared ? 2 : 0) | (dst_recursive_read ? 1 : 0));
}

struct uld_edge;
struct uld_lock;

struct uld_node {
    uint32_t id;              /* unique for the process lifetime, never reused */
    uint8_t subclass;
    uint16_t bfs_epoch;       /* the scratch below is stale unless this is current (bfs.c) */
    struct uld_edge *out, *in;
    void *owner;              /* struct uld_lock or struct uld_class */
    /* search scratch, valid while bfs_gen[] equals the search generation */
    uint32_t bfs_gen[2];      /* reached in state 0 (normal) / 1 (via recursive read) */
    uint32_t bfs_qidx[2];
    uint32_t gate_gen, gate_seen; /* gated search; gate_gen also marks the backward one */
};

struct uld_edge {
    uint64_t key;             /* from->id << 32 | to->id */
    struct uld_node *from, *to;
    struct uld_edge *out_next, *out_prev, *in_next, *in_prev;
    uint8_t types;            /* ULD_DEP_* seen so far */
    uint8_t ngates;
    uint8_t dumped_types, dumped_ngates; /* class graph: as last written (dump.c) */
    uint32_t gates[ULD_MAX_GATES]; /* exclusive locks held at every recording */
    /* first recording, for reports */
    struct uld_lock *from_lock, *to_lock; /* valid while their ids match */
    uint32_t from_lock_id, to_lock_id;
    uint32_t stack_id;        /* where `to` was acquired */
    uint8_t from_mode, to_mode; /* ULD_MODE_* of that recording */
    uint32_t thread_serial;
    int tid;
    uintptr_t from_ip;        /* where `from` had been acquired */
    UT_hash_handle hh;
};

struct uld_graph {
    const char *name;
    struct uld_edge *edges;   /* uthash by key */
    long nedges;
    _Atomic unsigned long version; /* bumped by every change to an edge (dump.c) */
};

enum uld_edge_change {
    ULD_EDGE_SAME,            /* nothing new: no cycle check needed */
    ULD_EDGE_NEW,
    ULD_EDGE_NEW_TYPE,        /* a new dependency type: may close a cycle now */
    ULD_EDGE_FEWER_GATES,     /* guarded by fewer locks: may close a cycle now */
    ULD_EDGE_FULL,            /* the edge table is full; not recorded */
};

void uld_node_init(struct uld_node *n, uint32_t id, uint8_t subclass, void *owner) ULD_HIDDEN;
/* Record from -> to with `type` (one ULD_DEP_*) seen with `gates` held. */
enum uld_edge_change uld_graph_add(struct uld_graph *g, struct uld_node *from,
                                   struct uld_node *to, unsigned type,
                                   const uint32_t *gates, int ngates,
                                   struct uld_edge **edge) ULD_HIDDEN;
struct uld_edge *uld_graph_find(struct uld_graph *g, const struct uld_node *from,
                                const struct uld_node *to) ULD_HIDDEN;
void uld_graph_remove_edge(struct uld_graph *g, struct uld_edge *e) ULD_HIDDEN;
/* Drop every edge into and out of n (the lock is gone). */
void uld_graph_remove_node(struct uld_graph *g, struct uld_node *n) ULD_HIDDEN;
long uld_graph_total_edges(void) ULD_HIDDEN;
void uld_graph_retire_range(struct uld_graph *g, uintptr_t lo, uintptr_t hi, unsigned index)
    ULD_HIDDEN;

/*
 * bfs.c - cycle search.  uld_bfs_reach() explores everything reachable from
 * `start`; uld_bfs_closes() then tells whether a new edge target -> start
 * closes a deadlocking cycle and fills the path start .. target.
 */
int uld_bfs_reach(struct uld_node *start, int start_rread) ULD_HIDDEN; /* -1: truncated */
int uld_bfs_closes(struct uld_node *start, struct uld_node *target, int target_shared,
                   struct uld_edge **path, int max) ULD_HIDDEN; /* path length or 0 */
/*
 * The search of uld_bfs_reach() from start, stopped early when a search
 * back from target (over in-edges, whatever the dependency types) runs out
 * first without meeting it: then no path leads from start to target.
 * Returns 0 for "no path" (the forward search is left partial: `resume`
 * continues it for another target, if no other search ran and no edge but
 * edges into start was added since), 1 when the forward search is complete
 * (uld_bfs_closes() answers), -1 when it was truncated.
 */
int uld_bfs_reach_toward(struct uld_node *start, int start_rread, int resume,
                         struct uld_node *target) ULD_HIDDEN;
/*
 * Like uld_bfs_reach+closes, but only accept a path on which no single lock
 * of `gates` (held exclusively over the new edge) guards every edge.
 * Returns path length, 0 if none, -1 when the search was truncated.
 */
int uld_bfs_ungated(struct uld_node *start, int start_rread, struct uld_node *target,
                    int target_shared, const uint32_t *gates, int ngates,
                    struct uld_edge **path, int max) ULD_HIDDEN;
/* Cycle searches so far, and the nodes and edges they visited (stats=1). */
struct uld_bfs_stats {
    unsigned long searches, nodes, edges;
};
void uld_bfs_stats(struct uld_bfs_stats *out) ULD_HIDDEN;
/* Tests only: set the search counter (the next search takes g + 1). */
void uld_bfs_set_generation(uint32_t g) ULD_HIDDEN;
/* Does `lock_id` guard every edge of path[0..n) and also the new edge? */
int uld_path_gated_by(struct uld_edge **path, int n, uint32_t lock_id) ULD_HIDDEN;

#endif
