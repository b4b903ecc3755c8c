/*
 * lockgraph.h - lock-class graph dumps (graph_path=, docs/reports.md
 * "Dependency graph dump") loaded from many processes, and cycle search over
 * any selection of them with the validator's own rules: lib/graph.c edges
 * and lib/bfs.c's bounded search (read/write states, gate classes), linked
 * from uld_core.  Single-threaded (lib's search state is global).
 */
#ifndef ULD_TOOL_LOCKGRAPH_H
#define ULD_TOOL_LOCKGRAPH_H

#include <stdint.h>

#include "json.h"
#include "util.h"

#define LG_MAX_GATES 4  /* ULD_MAX_GATES: gates kept per edge */
#define LG_MAX_CYCLE 64 /* ULD_MAX_CYCLE: edges per cycle */

struct lg_class {
    char *key;      /* stable across processes: "module@0xOFF[/sub]" */
    char *name;     /* the key when no dump named it */
    struct jv *obj; /* the first "class" line naming it, or NULL */
};

struct lg_input {
    char *path;
    char *program; /* from the header; "" when absent */
    long pid;      /* -1 when absent */
};

/* One "edge" line of one input. */
struct lg_record {
    int input;
    int from, to;   /* class indexes */
    unsigned types; /* 1 << 0..3: EN ER SN SR (lib/graph.h ULD_DEP_*) */
    int ngates;
    uint32_t gates[LG_MAX_GATES]; /* class indexes + 1 */
    struct jv *obj;               /* the line, for its stacks */
};

struct lg_store {
    struct lg_class *classes;
    size_t nclasses, capclasses;
    struct strmap class_index; /* key -> index */
    struct lg_input *inputs;
    size_t ninputs, capinputs;
    struct lg_record *records;
    size_t nrecords, caprecords;
    long bad_lines, io_errors;
};

/* Read one dump; malformed lines: one error line each, skipped.
 * Returns -1 (counted in io_errors) when it cannot be read. */
int lg_load(struct lg_store *st, const char *path);
void lg_free(struct lg_store *st);
/* "EN,SR" for a type mask. */
void lg_types_text(struct sbuf *b, unsigned types);

/* ---- cycle search ------------------------------------------------------- */

/* One edge of a found cycle: the merged edge between two classes. */
struct lg_edge {
    int from, to;
    unsigned types; /* union over the records included */
    int ngates;     /* intersection over the records included */
    uint32_t gates[LG_MAX_GATES];
};

/* Called per cycle found: edges[i].to is edges[i + 1].from, and the last
 * edge returns to edges[0].from, the cycle's class seen first in the inputs. */
typedef void lg_cycle_fn(void *ctx, const struct lg_edge *edges, int n);

/*
 * Build the graph of the records whose input is `input` (-1: all inputs,
 * their union: types united, gates intersected), then, for every edge and
 * every dependency type it has, look for the cycle that edge closes exactly
 * as the validator does when it records the edge.  Returns the number of
 * cycles passed to fn, or -1 if the search was truncated somewhere.
 */
int lg_cycles(const struct lg_store *st, int input, lg_cycle_fn *fn, void *ctx);

/* The merged edges of `input` (-1: all), in the order first recorded; *out malloc'd. */
size_t lg_edges(const struct lg_store *st, int input, struct lg_edge **out);

/* Canonical text of a cycle's class set (sorted keys), for deduplication. */
char *lg_cycle_key(const struct lg_store *st, const struct lg_edge *edges, int n);

#endif
