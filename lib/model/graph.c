/*
 * graph.c - nodes and edges of the dependency graphs; adjacency lists in
 * both directions so a forgotten lock drops its edges in O(degree).
 * Protected by graph_lock.
 */
#include "graph.h"

#include "base/config.h"
#include "modules.h"

static long total_edges;

long uld_graph_total_edges(void)
{
    return total_edges;
}

void uld_node_init(struct uld_node *n, uint32_t id, uint8_t subclass, void *owner)
{
    memset(n, 0, sizeof(*n));
    n->id = id;
    n->subclass = subclass;
    n->owner = owner;
}

static uint64_t edge_key(const struct uld_node *from, const struct uld_node *to)
{
    return (uint64_t)from->id << 32 | to->id;
}

struct uld_edge *uld_graph_find(struct uld_graph *g, const struct uld_node *from,
                                const struct uld_node *to)
{
    struct uld_edge *e;
    uint64_t key = edge_key(from, to);
    HASH_FIND(hh, g->edges, &key, sizeof(key), e);
    return e;
}

/* Keep only the gates present in both sets; returns 1 if the set shrank. */
static int intersect_gates(struct uld_edge *e, const uint32_t *gates, int ngates)
{
    int kept = 0;
    for (int i = 0; i < e->ngates; i++) {
        for (int j = 0; j < ngates; j++) {
            if (e->gates[i] == gates[j]) {
                e->gates[kept++] = e->gates[i];
                break;
            }
        }
    }
    int shrank = kept != e->ngates;
    e->ngates = (uint8_t)kept;
    return shrank;
}

static void link_edge(struct uld_edge *e)
{
    e->out_next = e->from->out;
    if (e->from->out)
        e->from->out->out_prev = e;
    e->from->out = e;
    e->in_next = e->to->in;
    if (e->to->in)
        e->to->in->in_prev = e;
    e->to->in = e;
}

static void unlink_edge(struct uld_edge *e)
{
    if (e->out_prev)
        e->out_prev->out_next = e->out_next;
    else
        e->from->out = e->out_next;
    if (e->out_next)
        e->out_next->out_prev = e->out_prev;
    if (e->in_prev)
        e->in_prev->in_next = e->in_next;
    else
        e->to->in = e->in_next;
    if (e->in_next)
        e->in_next->in_prev = e->in_prev;
}

enum uld_edge_change uld_graph_add(struct uld_graph *g, struct uld_node *from,
                                   struct uld_node *to, unsigned type,
                                   const uint32_t *gates, int ngates,
                                   struct uld_edge **edge)
{
    /* one hash for the probe and the insert */
    uint64_t key = edge_key(from, to);
    unsigned hv;
    struct uld_edge *e;
    HASH_VALUE(&key, sizeof(key), hv);
    HASH_FIND_BYHASHVALUE(hh, g->edges, &key, sizeof(key), hv, e);
    if (e) {
        *edge = e;
        int new_type = !(e->types & type);
        e->types |= (uint8_t)type;
        int fewer_gates = intersect_gates(e, gates, ngates);
        if (new_type || fewer_gates)
            g->version++;
        return new_type      ? ULD_EDGE_NEW_TYPE
               : fewer_gates ? ULD_EDGE_FEWER_GATES
                             : ULD_EDGE_SAME;
    }
    *edge = NULL;
    if (total_edges >= uld_config.max_edges)
        return ULD_EDGE_FULL;
    e = uld_alloc(sizeof(*e));
    if (!e)
        return ULD_EDGE_FULL;
    e->key = key;
    e->from = from;
    e->to = to;
    e->types = (uint8_t)type;
    if (ngates > ULD_MAX_GATES)
        ngates = ULD_MAX_GATES;
    e->ngates = (uint8_t)ngates;
    memcpy(e->gates, gates, (size_t)ngates * sizeof(*gates));
    HASH_ADD_BYHASHVALUE(hh, g->edges, key, sizeof(e->key), hv, e);
    if (!e->hh.tbl) { /* not added: no memory for the table (HASH_NONFATAL_OOM) */
        uld_free(e, sizeof(*e));
        return ULD_EDGE_FULL;
    }
    link_edge(e);
    g->nedges++;
    g->version++;
    total_edges++;
    *edge = e;
    return ULD_EDGE_NEW;
}

void uld_graph_remove_edge(struct uld_graph *g, struct uld_edge *e)
{
    unlink_edge(e);
    HASH_DELETE(hh, g->edges, e);
    g->nedges--;
    total_edges--;
    uld_free(e, sizeof(*e));
}

void uld_graph_remove_node(struct uld_graph *g, struct uld_node *n)
{
    while (n->out)
        uld_graph_remove_edge(g, n->out);
    while (n->in)
        uld_graph_remove_edge(g, n->in);
}

/* A module was unloaded: acquisition sites in it become unloaded addresses
 * (modules.h), named from its file rather than from a module mapped there later. */
void uld_graph_retire_range(struct uld_graph *g, uintptr_t lo, uintptr_t hi, unsigned index)
{
    struct uld_edge *e, *tmp;
    HASH_ITER(hh, g->edges, e, tmp)
        if (e->from_ip >= lo && e->from_ip < hi)
            e->from_ip = uld_addr_mark_unloaded(e->from_ip, index);
}
