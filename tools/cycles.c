/*
 * cycles.c - cycle search over loaded graph dumps with the validator's own
 * code: edges go into a lib/model/graph.c graph (which unites dependency types and
 * intersects gates exactly as at run time) and every edge is checked the way
 * lib/rules/check.c checks a new edge: uld_bfs_reach + uld_bfs_closes, and when
 * one gate class guards the whole cycle, uld_bfs_ungated.  lib's search
 * state is global: single-threaded.
 */
#include "lockgraph.h"

#include "base/config.h"
#include "model/graph.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(LG_MAX_GATES == ULD_MAX_GATES, "gates per edge differ from lib/");
_Static_assert(LG_MAX_CYCLE == ULD_MAX_CYCLE, "cycle length differs from lib/");

struct cgraph {
    struct uld_graph g;
    struct uld_node *nodes; /* one per class the edges name; id: class index + 1 */
    size_t nnodes;
    int full; /* the edge table filled up */
};

/* Class index -> node slot of the graph being built (valid when slot_gen matches). */
static int *slot, *slot_gen;
static size_t nslot;
static int build_gen;

static void mark(struct cgraph *cg, int *classes, int cls)
{
    if ((size_t)cls >= nslot) {
        size_t old = nslot, cap = old;
        xgrow(&slot, &nslot, (size_t)cls + 1, sizeof(int));
        xgrow(&slot_gen, &cap, nslot, sizeof(int));
        memset(slot_gen + old, 0, (nslot - old) * sizeof(int));
    }
    if (slot_gen[cls] != build_gen) {
        slot_gen[cls] = build_gen;
        classes[cg->nnodes++] = cls;
    }
}

static int by_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Nodes in class order (the order the classes were first seen), so the search
 * and its output do not depend on the order of the edges. */
static void cg_build(struct cgraph *cg, const struct lg_edge *edges, size_t n)
{
    static int configured;
    if (!configured) {
        uld_config_parse(NULL); /* defaults: max_edges for uld_graph_add */
        configured = 1;
    }
    memset(cg, 0, sizeof(*cg));
    cg->g.name = "merged";
    int *classes = xmalloc((2 * n + 1) * sizeof(int)); /* at most two per edge */
    build_gen++;
    for (size_t i = 0; i < n; i++) {
        mark(cg, classes, edges[i].from);
        mark(cg, classes, edges[i].to);
    }
    qsort(classes, cg->nnodes, sizeof(int), by_int);
    cg->nodes = xcalloc(cg->nnodes + 1, sizeof(struct uld_node));
    for (size_t i = 0; i < cg->nnodes; i++) {
        slot[classes[i]] = (int)i;
        uld_node_init(&cg->nodes[i], (uint32_t)classes[i] + 1, 0, NULL);
    }
    free(classes);
    for (size_t i = 0; i < n; i++) {
        const struct lg_edge *r = &edges[i];
        struct uld_node *from = &cg->nodes[slot[r->from]], *to = &cg->nodes[slot[r->to]];
        for (unsigned t = 0; t < 4; t++) {
            if (!(r->types & (1u << t)))
                continue;
            struct uld_edge *e;
            if (uld_graph_add(&cg->g, from, to, 1u << t, r->gates, r->ngates, &e) ==
                ULD_EDGE_FULL)
                cg->full = 1;
        }
    }
}

static void cg_free(struct cgraph *cg)
{
    for (size_t i = 0; i < cg->nnodes; i++)
        uld_graph_remove_node(&cg->g, &cg->nodes[i]);
    free(cg->nodes);
}

/* As lib/rules/check.c common_gate(): a gate of the closing edge on every path edge. */
static uint32_t common_gate(struct uld_edge *closing, struct uld_edge **path, int n)
{
    for (int i = 0; i < closing->ngates; i++)
        if (uld_path_gated_by(path, n, closing->gates[i]))
            return closing->gates[i];
    return 0;
}

static void to_lg_edge(const struct uld_edge *e, struct lg_edge *out)
{
    out->from = (int)e->from->id - 1;
    out->to = (int)e->to->id - 1;
    out->types = e->types;
    out->ngates = e->ngates;
    memcpy(out->gates, e->gates, sizeof(out->gates));
}

/* Tarjan's algorithm, iterative: the strongly connected component of every
 * node.  Only an edge inside one component can lie on a cycle, so the
 * (costly) search runs for those edges only. */
struct tarjan {
    int *index, *low, *comp, *stack, *onstack;
    struct tarjan_frame {
        size_t v;
        struct uld_edge *next;
    } * calls;
    int counter, ncomp, sp, depth;
};

static void tarjan_visit(struct tarjan *t, struct cgraph *cg, size_t v)
{
    t->index[v] = t->low[v] = t->counter++;
    t->stack[t->sp++] = (int)v;
    t->onstack[v] = 1;
    t->calls[t->depth++] = (struct tarjan_frame){v, cg->nodes[v].out};
}

static void tarjan_finish(struct tarjan *t, size_t v)
{
    if (t->low[v] == t->index[v]) {
        int w;
        do {
            w = t->stack[--t->sp];
            t->onstack[w] = 0;
            t->comp[w] = t->ncomp;
        } while (w != (int)v);
        t->ncomp++;
    }
    if (t->depth > 0) {
        size_t u = t->calls[t->depth - 1].v;
        t->low[u] = t->low[u] < t->low[v] ? t->low[u] : t->low[v];
    }
}

/* comp[] of every node (malloc'd; the caller frees). */
static int *components(struct cgraph *cg)
{
    size_t n = cg->nnodes;
    struct tarjan t = {.index = xmalloc(n * sizeof(int)),
                       .low = xmalloc(n * sizeof(int)),
                       .comp = xmalloc(n * sizeof(int)),
                       .stack = xmalloc(n * sizeof(int)),
                       .onstack = xcalloc(n, sizeof(int)),
                       .calls = xmalloc(n * sizeof(*t.calls))};
    memset(t.index, 0xff, n * sizeof(int)); /* -1: not visited */
    for (size_t r = 0; r < n; r++) {
        if (t.index[r] >= 0)
            continue;
        tarjan_visit(&t, cg, r);
        while (t.depth > 0) {
            struct tarjan_frame *f = &t.calls[t.depth - 1];
            struct uld_edge *e = f->next;
            if (!e) {
                t.depth--;
                tarjan_finish(&t, f->v);
                continue;
            }
            f->next = e->out_next;
            size_t w = (size_t)(e->to - cg->nodes);
            if (t.index[w] < 0)
                tarjan_visit(&t, cg, w);
            else if (t.onstack[w] && t.index[w] < t.low[f->v])
                t.low[f->v] = t.index[w];
        }
    }
    free(t.index);
    free(t.low);
    free(t.stack);
    free(t.onstack);
    free(t.calls);
    return t.comp;
}

/* The state of a search: what lib/rules/check.c passes for a new edge of one type. */
static int arrives_rread(unsigned type)
{
    return !!(type & (ULD_DEP_ER | ULD_DEP_SR)); /* target taken as a recursive reader */
}

static int from_shared(unsigned type)
{
    return !!(type & (ULD_DEP_SN | ULD_DEP_SR)); /* source held shared */
}

struct search {
    struct cgraph *cg;
    const int *comp;
    lg_cycle_fn *fn;
    void *ctx;
    int found, truncated;
    unsigned char *long_done; /* by component: a cycle too long to print was reported */
};

/* The cycle edge e, recorded with `type`, closes (reach from e->to done, if
 * *reached); calls fn for it.  As lib/rules/check.c check_cycle(). */
static void check_edge(struct search *s, struct uld_edge *e, unsigned type, int *reached)
{
    struct uld_edge *path[ULD_MAX_CYCLE];
    struct lg_edge cycle[ULD_MAX_CYCLE + 1];
    int rread = arrives_rread(type), shared = from_shared(type);
    if (!*reached && uld_bfs_reach(e->to, rread) < 0)
        s->truncated = 1;
    *reached = 1;
    int n = uld_bfs_closes(e->to, e->from, shared, path, ULD_MAX_CYCLE);
    if (n > 0 && common_gate(e, path, n)) {
        n = uld_bfs_ungated(e->to, rread, e->from, shared, e->gates, e->ngates, path,
                            ULD_MAX_CYCLE);
        *reached = 0; /* the gated search reused the search state */
        s->truncated |= n < 0;
    }
    if (n <= 0)
        return;
    if (n == ULD_MAX_CYCLE) {
        /* Longer than a report shows: every edge of it would find it again,
         * each time cut differently.  One report per connected set of classes. */
        int c = s->comp[e->from - s->cg->nodes];
        if (s->long_done[c])
            return;
        s->long_done[c] = 1;
    }
    /* start at the class seen first in the inputs: a stable order for output */
    int first = 0;
    for (int k = 0; k < n; k++)
        if (path[k]->from->id < (first ? path[first - 1]->from->id : e->from->id))
            first = k + 1;
    for (int k = 0; k <= n; k++) {
        int at = (first + k) % (n + 1);
        to_lg_edge(at ? path[at - 1] : e, &cycle[k]);
    }
    s->fn(s->ctx, cycle, n + 1);
    s->found++;
}

/* Every edge into v whose type arrives in state rread: one reach for all. */
static void check_into(struct search *s, struct uld_node *v, int rread)
{
    int reached = 0;
    for (struct uld_edge *e = v->in; e; e = e->in_next) {
        if (s->comp[e->from - s->cg->nodes] != s->comp[v - s->cg->nodes])
            continue;                    /* on no cycle at all */
        for (unsigned t = 0; t < 4; t++) /* each type may close a different cycle */
            if ((e->types & (1u << t)) && arrives_rread(1u << t) == rread)
                check_edge(s, e, 1u << t, &reached);
    }
}

int lg_cycles(const struct lg_store *st, const struct lg_edge *edges, size_t n, lg_cycle_fn *fn,
              void *ctx)
{
    (void)st;
    struct cgraph cg;
    cg_build(&cg, edges, n);
    if (cg.full)
        tool_error("more than %ld dependency edges: the rest are ignored", uld_config.max_edges);
    int *comp = components(&cg);
    struct search s = {&cg, comp, fn, ctx, 0, 0, xcalloc(cg.nnodes + 1, 1)};
    for (size_t v = 0; v < cg.nnodes; v++)
        for (int rread = 0; rread < 2; rread++)
            check_into(&s, &cg.nodes[v], rread);
    free(comp);
    free(s.long_done);
    cg_free(&cg);
    if (s.truncated)
        tool_error("the cycle search queue (%u entries) overflowed: some cycles may be missing",
                   (unsigned)ULD_BFS_QUEUE);
    return s.truncated ? -1 : s.found;
}

int lg_union_cycles(const struct lg_store *st, lg_cycle_fn *fn, void *ctx)
{
    struct lg_edge *edges = xcalloc(st->nedges + 1, sizeof(*edges));
    for (size_t i = 0; i < st->nedges; i++)
        edges[i] = st->edges[i].e;
    int r = lg_cycles(st, edges, st->nedges, fn, ctx);
    free(edges);
    return r;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *lg_cycle_key(const struct lg_store *st, const struct lg_edge *edges, int n)
{
    const char *keys[ULD_MAX_CYCLE + 1];
    for (int i = 0; i < n; i++)
        keys[i] = st->classes[edges[i].from].key;
    qsort(keys, (size_t)n, sizeof(keys[0]), by_str);
    struct sbuf b = {0};
    for (int i = 0; i < n; i++)
        sbuf_printf(&b, "%s\n", keys[i]);
    return b.s;
}
