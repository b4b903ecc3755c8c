/*
 * lockgraph.h - lock-class graph dumps (graph_path=, docs/reports.md
 * "Dependency graph dump") of many processes, reduced as they are read into
 * one store whose size grows with the distinct classes and edges, not with
 * the inputs: the union of all edges (types united, gates intersected, the
 * first recording kept for its stacks), the class sets of the cycles some
 * single process showed by itself, and per class whether it stood for one
 * object in every dump that recorded its edges.  The cycle search (cycles.c)
 * uses the validator's own rules: lib/model/graph.c edges and lib/model/bfs.c's bounded
 * search, linked from uld_core.  Single-threaded (lib's search state is
 * global).
 */
#ifndef ULD_TOOL_LOCKGRAPH_H
#define ULD_TOOL_LOCKGRAPH_H

#include <stdint.h>

#include "json.h"
#include "util.h"

#define LG_MAX_GATES 4  /* ULD_MAX_GATES: gates kept per edge */
#define LG_MAX_CYCLE 64 /* ULD_MAX_CYCLE: edges per cycle */

#define LG_LIVE_UNKNOWN (-1L) /* some dump that recorded its edges did not say */

struct lg_class {
    char *key;      /* stable across processes */
    char *name;     /* the key when no dump named it */
    struct jv *obj; /* the first "class" line naming it, or NULL */
    long live;      /* most live instances at once over the dumps that recorded
                       its edges; 0: no edge yet; LG_LIVE_UNKNOWN */
    long file_live; /* while loading: this file's max_live (0: not given) */
    unsigned file_gen, touched_gen;
};

/* A class stands for one object: a static lock, or at most one live instance
 * in every dump that recorded its edges. */
int lg_class_single(const struct lg_class *c);

/* A merged edge: from, to (class indexes) and what every recording saw. */
struct lg_edge {
    int from, to;
    unsigned types; /* 1 << 0..3: EN ER SN SR (lib/model/graph.h ULD_DEP_*), united */
    int ngates;     /* intersected */
    uint32_t gates[LG_MAX_GATES]; /* class indexes + 1 */
};

/* Who recorded an edge first. */
struct lg_origin {
    char *file, *program;
    long pid; /* -1 when unknown */
};

/* One edge of the union. */
struct lg_uedge {
    struct lg_edge e;
    long recordings;      /* dumps that recorded it */
    int origin;           /* index into origins */
    struct jv *from_at;   /* the first recording's frames */
    struct jv *stack;
    int in_run;           /* recorded by an input that is not a baseline */
    unsigned seen_gen;    /* the last input that recorded it (recordings counted once) */
    struct lg_edge base;  /* the baseline's recordings (base.types 0: none) */
};

struct lg_store {
    struct lg_class *classes;
    size_t nclasses, capclasses;
    struct strmap class_index; /* key -> index */
    struct lg_uedge *edges;    /* in the order first recorded */
    size_t nedges, capedges;
    struct strmap edge_index; /* "from>to" -> index */
    struct lg_origin *origins;
    size_t norigins, caporigins;
    struct strmap origin_index;
    struct strmap single; /* cycle keys (lg_cycle_key) one dump showed by itself */
    long ninputs;         /* files read */
    long ndumps;          /* process dumps they stand for (a merged dump: many) */
    long incomplete;      /* dumps without their final record (process killed) */
    long *pids;           /* processes with a dump, sorted when lg_has_pid is used */
    size_t npids, cappids;
    int pids_sorted;
    long bad_lines, io_errors;
    /* while loading one file: its own edges, for its own cycles */
    struct lg_edge *file_edges;
    size_t nfile_edges, capfile_edges;
    int *touched; /* classes its edges name */
    size_t ntouched, captouched;
    unsigned gen;
};

/* Read one dump (`baseline`: its edges are known orders, see cmd_merge.c);
 * malformed lines: one error line each, skipped.  Returns -1 (counted in
 * io_errors) when it cannot be read. */
int lg_load(struct lg_store *st, const char *path, int baseline);
void lg_free(struct lg_store *st);
/* "EN,SR" for a type mask. */
void lg_types_text(struct sbuf *b, unsigned types);
int lg_has_pid(struct lg_store *st, long pid);

/* Write the store as one graph dump that lg_load reads back: merging it with
 * more dumps finds what merging all their inputs finds. */
void lg_write(struct sbuf *b, const struct lg_store *st);

/* ---- cycle search (cycles.c) --------------------------------------------- */

/* Called per cycle found: edges[i].to is edges[i + 1].from, and the last
 * edge returns to edges[0].from, the cycle's class seen first in the inputs. */
typedef void lg_cycle_fn(void *ctx, const struct lg_edge *edges, int n);

/*
 * Build the graph of these edges and, for every edge and every dependency
 * type it has, look for the cycle that edge closes exactly as the validator
 * does when it records the edge.  Returns the number of cycles passed to fn,
 * or -1 if the search was truncated somewhere.
 */
int lg_cycles(const struct lg_store *st, const struct lg_edge *edges, size_t n, lg_cycle_fn *fn,
              void *ctx);
/* The same over the union of everything loaded. */
int lg_union_cycles(const struct lg_store *st, lg_cycle_fn *fn, void *ctx);

/* Canonical text of a cycle's class set (sorted keys), for deduplication. */
char *lg_cycle_key(const struct lg_store *st, const struct lg_edge *edges, int n);

/* Unite one recording into an edge, as lib/model/graph.c does. */
void lg_edge_unite(struct lg_edge *into, unsigned types, const uint32_t *gates, int ngates);

#endif
