/*
 * bfs.c - bounded breadth-first cycle search (after the kernel's __bfs()):
 * a fixed queue, generation numbers instead of visited sets, parent links
 * in the queue to rebuild the path for the report.  The state of a search
 * is (node, arrived via a recursive-read acquisition?), so read/write
 * cycles that cannot deadlock are not found.  Protected by graph_lock.
 */
#include "graph.h"

struct bfs_entry {
    struct uld_node *node;
    struct uld_edge *via;   /* edge that reached node; NULL at the start */
    uint32_t parent;        /* queue index of the previous node */
    uint8_t state;          /* 1: arrived as a recursive reader */
    uint8_t mask;           /* gated search: gates still common to the path */
};

static struct bfs_entry *queue;
static uint32_t generation;
static uint32_t qlen;

static int queue_ready(void)
{
    if (!queue)
        queue = uld_map(sizeof(*queue) * ULD_BFS_QUEUE);
    return queue != NULL;
}

/*
 * Which of the edge's dependency types may follow an arrival in `state`,
 * and the state they lead to.  Returns -1 if the edge cannot be used.
 */
static int next_state(const struct uld_edge *e, int state)
{
    unsigned usable = state ? (e->types & ULD_DEP_SRC_EXCL) : e->types;
    if (!usable)
        return -1;
    return (usable & ULD_DEP_DST_NONREC) ? 0 : 1;
}

static int push(struct uld_node *n, struct uld_edge *via, uint32_t parent, int state,
                unsigned mask)
{
    if (qlen >= ULD_BFS_QUEUE)
        return -1;
    queue[qlen] = (struct bfs_entry){n, via, parent, (uint8_t)state, (uint8_t)mask};
    return (int)qlen++;
}

int uld_bfs_reach(struct uld_node *start, int start_rread)
{
    if (!queue_ready())
        return -1;
    generation++;
    qlen = 0;
    int s0 = start_rread ? 1 : 0;
    push(start, NULL, 0, s0, 0);
    start->bfs_gen[s0] = generation;
    start->bfs_qidx[s0] = 0;
    for (uint32_t head = 0; head < qlen; head++) {
        struct bfs_entry cur = queue[head];
        for (struct uld_edge *e = cur.node->out; e; e = e->out_next) {
            int ns = next_state(e, cur.state);
            struct uld_node *to = e->to;
            if (ns < 0 || to->bfs_gen[0] == generation ||
                (ns == 1 && to->bfs_gen[1] == generation))
                continue; /* state 0 dominates state 1 */
            int idx = push(to, e, head, ns, 0);
            if (idx < 0)
                return -1;
            to->bfs_gen[ns] = generation;
            to->bfs_qidx[ns] = (uint32_t)idx;
        }
    }
    return 0;
}

/* Edges from the start to queue[idx], in order; a longer cycle keeps its first `max`. */
static int build_path(uint32_t idx, struct uld_edge **path, int max)
{
    int total = 0;
    for (uint32_t i = idx; queue[i].via; i = queue[i].parent)
        total++;
    int pos = total;
    for (uint32_t i = idx; queue[i].via; i = queue[i].parent)
        if (--pos < max)
            path[pos] = queue[i].via;
    return total < max ? total : max;
}

int uld_bfs_closes(struct uld_node *start, struct uld_node *target, int target_shared,
                   struct uld_edge **path, int max)
{
    (void)start;
    int state;
    if (target->bfs_gen[0] == generation)
        state = 0;
    else if (target->bfs_gen[1] == generation && !target_shared)
        state = 1; /* arrived as recursive reader: blocks only on an exclusive holder */
    else
        return 0;
    if (target == start)
        return 0;
    return build_path(target->bfs_qidx[state], path, max);
}

static int gate_slot(int state, unsigned mask)
{
    return state * 16 + (int)mask;
}

static unsigned edge_gate_mask(const struct uld_edge *e, const uint32_t *gates, int ngates)
{
    unsigned m = 0;
    for (int i = 0; i < ngates; i++)
        for (int j = 0; j < e->ngates; j++)
            if (e->gates[j] == gates[i])
                m |= 1u << i;
    return m;
}

int uld_bfs_ungated(struct uld_node *start, int start_rread, struct uld_node *target,
                    int target_shared, const uint32_t *gates, int ngates,
                    struct uld_edge **path, int max)
{
    if (!queue_ready())
        return -1;
    if (ngates > 4)
        ngates = 4;
    generation++;
    qlen = 0;
    unsigned full = (1u << ngates) - 1;
    int s0 = start_rread ? 1 : 0;
    push(start, NULL, 0, s0, full);
    start->gate_gen = generation;
    start->gate_seen = 1u << gate_slot(s0, full);
    for (uint32_t head = 0; head < qlen; head++) {
        struct bfs_entry cur = queue[head];
        if (cur.node == target && cur.mask == 0 && (cur.state == 0 || !target_shared))
            return build_path(head, path, max);
        for (struct uld_edge *e = cur.node->out; e; e = e->out_next) {
            int ns = next_state(e, cur.state);
            if (ns < 0)
                continue;
            unsigned nm = cur.mask & edge_gate_mask(e, gates, ngates);
            struct uld_node *to = e->to;
            if (to->gate_gen != generation) {
                to->gate_gen = generation;
                to->gate_seen = 0;
            }
            uint32_t bit = 1u << gate_slot(ns, nm);
            if (to->gate_seen & bit)
                continue;
            to->gate_seen |= bit;
            if (push(to, e, head, ns, nm) < 0)
                return -1;
        }
    }
    return 0;
}

int uld_path_gated_by(struct uld_edge **path, int n, uint32_t lock_id)
{
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < path[i]->ngates; j++)
            found |= path[i]->gates[j] == lock_id;
        if (!found)
            return 0;
    }
    return 1;
}
