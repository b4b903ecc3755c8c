/*
 * bfs.c - bounded breadth-first cycle search (after the kernel's __bfs()):
 * a fixed queue, generation numbers instead of visited sets, parent links
 * in the queue to rebuild the path for the report.  The state of a search
 * is (node, arrived via a recursive-read acquisition?), so read/write
 * cycles that cannot deadlock are not found.  Protected by graph_lock.
 *
 * A new edge h -> x closes a cycle only if x reaches h.  The search from x
 * can be large where the one back from h is tiny (a cache's table lock has
 * an edge to each of its thousand entries' locks, while a new entry's lock
 * has one or two in-edges), so uld_bfs_reach_toward() also searches back
 * from h over in-edges, ignoring dependency types (a superset of the paths
 * the exact search may take), one edge on each side in turn: if the back
 * search runs out without meeting x, no path exists and the exact search
 * stops there, at about twice the cost of the smaller side.
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
static uint32_t qlen;
/* One counter for every search, so the marks of one kind of search never
 * look current to another; reach_gen is the forward search's.  A daemon
 * can run 2^32 searches: when the counter wraps, the epoch moves on, and a
 * node's marks from an older epoch are cleared before they are read, so a
 * mark left long ago never passes for this search's. */
static uint32_t generation, reach_gen;
static uint16_t epoch;
static struct uld_bfs_stats stats;

/* The forward search from `start`, resumable one step at a time. */
static struct {
    struct uld_node *start;
    uint32_t head;          /* queue entry whose out-edges are being scanned */
    struct uld_edge *next;  /* its next edge; NULL: go on to the next entry */
    int done;
} fwd;

/* The backward search: nodes only (no parents, no states), marked in gate_gen. */
static struct uld_node **back_queue;
static uint32_t back_qlen, back_head, back_gen;
static struct uld_edge *back_next;

void uld_bfs_stats(struct uld_bfs_stats *out)
{
    *out = stats;
}

void uld_bfs_set_generation(uint32_t g)
{
    generation = g;
}

/* The counter for a search that starts afresh (forward or gated): they
 * wrap it, with room left for the backward searches that may run before
 * the next one, while a resumable forward search's marks must stay. */
#define BACKWARD_ROOM (1u << 20)

static uint32_t next_generation(void)
{
    if (generation >= UINT32_MAX - BACKWARD_ROOM) {
        epoch++;
        generation = 0;
    }
    return ++generation;
}

/* Before any read or write of n's marks. */
static inline struct uld_node *fresh(struct uld_node *n)
{
    if (n->bfs_epoch != epoch) {
        n->bfs_gen[0] = n->bfs_gen[1] = n->gate_gen = 0;
        n->bfs_epoch = epoch;
    }
    return n;
}

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

static void forward_begin(struct uld_node *start, int start_rread)
{
    reach_gen = next_generation();
    fresh(start);
    qlen = 0;
    stats.searches++;
    stats.nodes++;
    int s0 = start_rread ? 1 : 0;
    push(start, NULL, 0, s0, 0);
    start->bfs_gen[s0] = reach_gen;
    start->bfs_qidx[s0] = 0;
    fwd.start = start;
    fwd.head = 0;
    fwd.next = start->out;
    fwd.done = 0;
}

/* One step: scan an edge, or move on to the next queued node.
 * Returns 1 while there is more, 0 when complete, -1 when truncated. */
static inline int forward_step(void)
{
    struct uld_edge *e = fwd.next;
    if (!e) {
        if (++fwd.head >= qlen) {
            fwd.done = 1;
            return 0;
        }
        fwd.next = queue[fwd.head].node->out;
        stats.nodes++;
        return 1;
    }
    fwd.next = e->out_next;
    stats.edges++;
    int ns = next_state(e, queue[fwd.head].state);
    struct uld_node *to = fresh(e->to);
    if (ns < 0 || to->bfs_gen[0] == reach_gen || (ns == 1 && to->bfs_gen[1] == reach_gen))
        return 1; /* state 0 dominates state 1 */
    int idx = push(to, e, fwd.head, ns, 0);
    if (idx < 0) {
        fwd.done = 1;
        return -1;
    }
    to->bfs_gen[ns] = reach_gen;
    to->bfs_qidx[ns] = (uint32_t)idx;
    return 1;
}

static int forward_finish(void)
{
    int r;
    if (fwd.done)
        return 0;
    while ((r = forward_step()) > 0)
        ;
    return r;
}

int uld_bfs_reach(struct uld_node *start, int start_rread)
{
    if (!queue_ready())
        return -1;
    forward_begin(start, start_rread);
    return forward_finish() < 0 ? -1 : 0;
}

static int reached(struct uld_node *n)
{
    fresh(n);
    return n->bfs_gen[0] == reach_gen || n->bfs_gen[1] == reach_gen;
}

/* 0 when the counter has no room left (never in practice: see BACKWARD_ROOM). */
static int backward_begin(struct uld_node *target)
{
    if (generation == UINT32_MAX)
        return 0;
    back_gen = ++generation;
    fresh(target);
    stats.nodes++;
    back_queue[0] = target;
    back_qlen = 1;
    back_head = 0;
    back_next = target->in;
    target->gate_gen = back_gen;
    return 1;
}

/* One step of the backward search: 1 while there is more, 0 when it ran
 * out, 2 when it met the forward search (a path may exist), -1 truncated. */
static inline int backward_step(void)
{
    struct uld_edge *e = back_next;
    if (!e) {
        if (++back_head >= back_qlen)
            return 0;
        back_next = back_queue[back_head]->in;
        stats.nodes++;
        return 1;
    }
    back_next = e->in_next;
    stats.edges++;
    struct uld_node *from = fresh(e->from);
    if (from->gate_gen == back_gen)
        return 1;
    if (reached(from))
        return 2;
    if (back_qlen >= ULD_BFS_QUEUE)
        return -1;
    from->gate_gen = back_gen;
    back_queue[back_qlen++] = from;
    return 1;
}

int uld_bfs_reach_toward(struct uld_node *start, int start_rread, int resume,
                         struct uld_node *target)
{
    if (!back_queue)
        back_queue = uld_map(sizeof(*back_queue) * ULD_BFS_QUEUE);
    if (!queue_ready() || !back_queue)
        return -1;
    if (!resume || fwd.start != start)
        forward_begin(start, start_rread);
    if (fwd.done)
        return 1;
    if (!reached(target) && backward_begin(target)) {
        for (int back = 1;; back = !back) {
            int r;
            if (back) {
                r = backward_step();
                if (r == 0)
                    return 0; /* nothing that leads to target is reachable from start */
                if (r != 1)
                    break;    /* they met, or the queue is full: the exact search decides */
            } else {
                r = forward_step();
                if (r <= 0)
                    return r < 0 ? -1 : 1;
                if (reached(target))
                    break;
            }
        }
    }
    return forward_finish() < 0 ? -1 : 1;
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
    fresh(target);
    if (target->bfs_gen[0] == reach_gen)
        state = 0;
    else if (target->bfs_gen[1] == reach_gen && !target_shared)
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
    next_generation();
    fresh(start);
    qlen = 0;
    fwd.start = NULL; /* the queue is this search's now */
    stats.searches++;
    unsigned full = (1u << ngates) - 1;
    int s0 = start_rread ? 1 : 0;
    push(start, NULL, 0, s0, full);
    start->gate_gen = generation;
    start->gate_seen = 1u << gate_slot(s0, full);
    for (uint32_t head = 0; head < qlen; head++) {
        struct bfs_entry cur = queue[head];
        stats.nodes++;
        if (cur.node == target && cur.mask == 0 && (cur.state == 0 || !target_shared))
            return build_path(head, path, max);
        for (struct uld_edge *e = cur.node->out; e; e = e->out_next) {
            int ns = next_state(e, cur.state);
            stats.edges++;
            if (ns < 0)
                continue;
            unsigned nm = cur.mask & edge_gate_mask(e, gates, ngates);
            struct uld_node *to = fresh(e->to);
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
