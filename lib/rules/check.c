/*
 * check.c - the rules: lock order (instance and class graphs, read/write
 * aware, gate locks), self-deadlock, and misuse (unlock of a lock not held,
 * unlock by a non-owner, destroy or free while held, exit while holding,
 * failed assertions).  Everything here runs with graph_lock held and only
 * builds report snapshots; printing happens after graph_lock is dropped.
 */
#include "model/chain.h"
#include "base/tablefull.h"
#include <string.h>
#include "base/config.h"
#include "rules.h"
#include "model/lazy.h"
#include "model/state.h"
#include "report/report.h"
#include "model/stack.h"
#include "model/stackmemo.h"
#include "model/thread.h"
#include "model/tomb.h"
#include "wait.h"

/* The search from the lock being acquired, shared by the new edges into it
 * (edges into x change nothing reachable from x): not begun; begun and
 * stopped early (uld_bfs_reach_toward); complete. */
enum { REACH_NONE, REACH_PARTIAL, REACH_DONE };

/* Per-acquisition state of the order check. */
struct order_ctx {
    struct uld_thread *t;
    struct uld_lock *x;            /* the lock being acquired */
    unsigned subclass, mode;
    int x_rread;                   /* acquired as a recursive reader */
    uint32_t stack_id;             /* current stack, captured on demand */
    int reach;                     /* REACH_*: the search from x in this pass */
    int found_instance_cycle;
    int search;                    /* wait edges: 0 none, 1 when new, 2 always */
    int skip;                      /* held entries below this add no dependency */
};

static uint64_t mix64(uint64_t h, uint64_t v)
{
    return uld_chain_mix(uld_chain_mix(h, (uint32_t)v, 0), (uint32_t)(v >> 32), 1);
}

/* The held entry's lock, if it is still that lock and still held (not a
 * stale semaphore token: uld_sem_is_lock). */
static struct uld_lock *held_lock(const struct uld_held *h)
{
    struct uld_lock *l = h->lock;
    if (!l || l->id != h->lock_id || atomic_load(&l->addr) != h->addr)
        return NULL;
    if (l->type == ULD_TYPE_SEM && !uld_sem_is_lock(l))
        return NULL;
    return l;
}

/* The stack of the acquisition at ip happening now: the same call chain
 * making edges again reuses its capture (stackmemo.c). */
static uint32_t current_stack(struct order_ctx *c, uintptr_t ip)
{
    if (!c->stack_id)
        c->stack_id = uld_stack_capture_memo(c->t, ip);
    return c->stack_id;
}

/* Where a report happens: the first frame outside lock wrappers (wrappers.c),
 * not nni_plat_mtx_lock's call of pthread_mutex_lock. */
static uintptr_t report_site(uintptr_t ip)
{
    const uintptr_t *f;
    if (!uld_in_wrapper(ip))
        return ip;
    int n = uld_stack_frames(uld_stack_capture_limited(0, 8), &f), i = 0;
    while (i < n && f[i] != ip)
        i++;
    while (i + 1 < n && uld_in_wrapper(f[i]))
        i++;
    return i < n ? f[i] : ip;
}

/* The reporting thread: who, and where (outside wrapper frames). */
void uld_report_fill_thread(struct uld_report *r, struct uld_thread *t, uintptr_t ip)
{
    uld_thread_refresh_name(t);
    uld_thread_publish(t);
    r->tid = t->tid;
    r->serial = t->serial;
    memcpy(r->thread_name, t->name, sizeof(r->thread_name));
    r->ip = report_site(ip);
}

/* The thread's held locks; those not already in the report are context only. */
static void fill_held(struct uld_report *r, struct uld_thread *t, int are_subject)
{
    for (int i = 0; i < t->depth && r->nheld < ULD_R_MAX_HELD; i++) {
        struct uld_held *h = &t->held[i];
        struct uld_lock *l = held_lock(h);
        if (!l)
            continue;
        int known = r->nlocks;
        int idx = uld_report_add_lock(r, l, h->subclass);
        if (idx < 0)
            continue;
        if (idx >= known && !are_subject)
            r->locks[idx].context = 1;
        r->held[r->nheld++] = (struct uld_rheld){idx, h->mode, h->ip, t->serial};
    }
}

/* ---- self-deadlock ---------------------------------------------------- */

static const char *relock_problem(const struct uld_lock *l, unsigned held_mode, unsigned mode)
{
    switch (l->type) {
    case ULD_TYPE_MUTEX:
        if (l->flags & ULD_LF_RECURSIVE)
            return NULL;
        return (l->flags & ULD_LF_ERRORCHECK)
                   ? "error-checking mutex locked again by its owner (returns EDEADLK)"
                   : "non-recursive mutex locked again by its owner";
    case ULD_TYPE_SPIN:
        return "spinlock locked again by its owner";
    case ULD_TYPE_RWLOCK:
        if (!(held_mode & ULD_MODE_READ))
            return (mode & ULD_MODE_READ) ? "rwlock held for writing, read-locked again"
                                          : "rwlock write-locked twice";
        if (!(mode & ULD_MODE_READ))
            return "rwlock held for reading, write-locked by the same thread (upgrade)";
        if (l->flags & ULD_LF_WRITER_PREF)
            return "writer-preferring rwlock read-locked twice: a writer queued in between "
                   "blocks the second read";
        return NULL;
    default:
        if (l->flags & ULD_LF_RECURSIVE)
            return NULL;
        if ((held_mode & mode & ULD_MODE_READ) && (l->flags & ULD_LF_READ_RECURSIVE))
            return NULL;
        return "lock acquired again by its owner";
    }
}

/* Returns 1 if x is already held (reported or not): no edges then. */
static int check_relock(struct order_ctx *c, uintptr_t ip)
{
    struct uld_thread *t = c->t;
    for (int i = t->depth - 1; i >= 0; i--) {
        if (t->held[i].lock_id != c->x->id)
            continue;
        const char *why = relock_problem(c->x, t->held[i].mode, c->mode);
        if (!why)
            return 1;
        uint64_t key = mix64(mix64(ULD_R_SELF_DEADLOCK, c->x->cls->node.id), ip);
        if (uld_report_seen(key))
            return 1;
        struct uld_report *r = uld_report_new(ULD_R_SELF_DEADLOCK);
        if (!r)
            return 1;
        uld_report_fill_thread(r, t, ip);
        r->target = uld_report_add_lock(r, c->x, c->subclass);
        r->target_mode = (uint8_t)c->mode;
        r->stack_id = current_stack(c, ip);
        uld_snprintf(r->detail, sizeof(r->detail), "%s", why);
        fill_held(r, t, 0);
        uld_report_submit(r, key);
        return 1;
    }
    return 0;
}

/* ---- lock order ------------------------------------------------------- */

static struct uld_class *class_of_node(struct uld_graph *g, struct uld_node *n)
{
    if (g == &uld_class_graph)
        return n->owner;
    return uld_lock_class(n->owner, n->subclass);
}

/* Insertion sort: tiny arrays, and no libc call that might allocate. */
static void sort_u32(uint32_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static uint64_t key_of_set(int kind, uint32_t *ids, int n)
{
    sort_u32(ids, n);
    uint64_t key = (uint64_t)kind;
    for (int i = 0; i < n; i++)
        key = mix64(key, ids[i]);
    return key;
}

/*
 * Deduplication.  A class cycle: one report per set of classes.  An
 * instance cycle: one report per cycle (its set of nodes) and per pattern
 * (its edges as classes and sites): a buggy loop over many objects runs one
 * pattern and reports once, while two different cycles among locks of one
 * class (all of a program's mutexes made by one wrapper) are two reports.
 * The class-set key of an instance cycle is kept too: it tells the class
 * check that an instance cycle explains a class cycle.  The cycle's nodes
 * are path[0]'s source (the lock being acquired) and every path edge's
 * target.
 */
static uint64_t cycle_key(int kind, struct uld_graph *g, struct uld_edge **path, int n)
{
    uint32_t ids[ULD_MAX_CYCLE + 1];
    int k = 0;
    ids[k++] = class_of_node(g, path[0]->from)->node.id;
    for (int i = 0; i < n; i++)
        ids[k++] = class_of_node(g, path[i]->to)->node.id;
    return key_of_set(kind, ids, k);
}

static uint64_t instance_key(int kind, struct uld_edge **path, int n)
{
    uint32_t ids[ULD_MAX_CYCLE + 1];
    int k = 0;
    ids[k++] = path[0]->from->id;
    for (int i = 0; i < n; i++)
        ids[k++] = path[i]->to->id;
    return mix64(key_of_set(kind, ids, k), 0x696e7374); /* "inst" */
}

/* An edge as classes and the innermost frames of its first recording. */
static uint64_t edge_pattern(struct uld_graph *g, const struct uld_edge *e)
{
    const uintptr_t *f;
    uint64_t h = mix64(class_of_node(g, e->from)->node.id, class_of_node(g, e->to)->node.id);
    int nf = uld_stack_frames(e->stack_id, &f);
    for (int i = 0; i < nf && i < ULD_R_SITE_FRAMES; i++)
        h = mix64(h, uld_report_site_frame(f, i));
    return h;
}

static uint64_t pattern_key(int kind, struct uld_graph *g, struct uld_edge *new_edge,
                            struct uld_edge **path, int n)
{
    uint64_t v[ULD_MAX_CYCLE + 1];
    int k = 0;
    v[k++] = edge_pattern(g, new_edge);
    for (int i = 0; i < n; i++) {
        uint64_t x = edge_pattern(g, path[i]);
        int j = k++;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    uint64_t key = mix64((uint64_t)kind, 0x70617474); /* "patt" */
    for (int i = 0; i < k; i++)
        key = mix64(key, v[i]);
    return key;
}

/* A lock of a class-graph edge end: the recorded instance if it still exists. */
static int add_edge_end(struct uld_report *r, struct uld_graph *g, struct uld_node *n,
                        struct uld_lock *l, uint32_t id)
{
    if (g == &uld_lock_graph)
        return uld_report_add_lock(r, n->owner, n->subclass);
    if (l && l->id == id && atomic_load(&l->addr))
        return uld_report_add_lock(r, l, n->subclass);
    return uld_report_add_class(r, n->owner);
}

static void add_step(struct uld_report *r, struct uld_graph *g, struct uld_edge *e)
{
    if (r->nsteps >= ULD_R_MAX_LOCKS)
        return;
    struct uld_rstep *s = &r->steps[r->nsteps++];
    s->from = add_edge_end(r, g, e->from, e->from_lock, e->from_lock_id);
    s->to = add_edge_end(r, g, e->to, e->to_lock, e->to_lock_id);
    s->types = e->types;
    s->from_mode = e->from_mode;
    s->to_mode = e->to_mode;
    s->stack_id = e->stack_id;
    s->from_ip = e->from_ip;
    s->tid = e->tid;
    s->serial = e->thread_serial;
}

static int is_wait_node(const struct uld_node *n)
{
    return uld_is_wait_type(((const struct uld_lock *)n->owner)->type);
}

/*
 * Report the cycle new -> path[0] -> ... -> path[n-1], where new is the edge
 * h -> x being recorded now and the path leads from x back to h.
 */
static void report_cycle(struct order_ctx *c, struct uld_graph *g, struct uld_edge *new_edge,
                         struct uld_edge **path, int n, uintptr_t ip)
{
    int is_class = g == &uld_class_graph;
    int waits = !is_class && (is_wait_node(new_edge->from) || is_wait_node(new_edge->to));
    for (int i = 0; i < n && !is_class; i++)
        waits |= is_wait_node(path[i]->to);
    int kind = is_class ? ULD_R_CLASS_ORDER : waits ? ULD_R_WAIT_FOR : ULD_R_LOCK_ORDER;
    uint64_t key = cycle_key(kind, g, path, n);
    if (is_class) {
        if (!uld_config.class_warnings || c->found_instance_cycle ||
            uld_report_seen(cycle_key(ULD_R_LOCK_ORDER, g, path, n)) || uld_report_seen(key))
            return;
    } else {
        c->found_instance_cycle = 1;
        uint64_t cycle = instance_key(kind, path, n);
        uint64_t classes = key;
        key = pattern_key(kind, g, new_edge, path, n);
        if (uld_report_seen(cycle) || uld_report_seen(key))
            return;
        uld_report_mark_seen(cycle);
        uld_report_mark_seen(classes);
    }
    struct uld_report *r = uld_report_new(kind);
    if (!r)
        return;
    uld_report_fill_thread(r, c->t, ip);
    r->target = add_edge_end(r, g, new_edge->to, c->x, c->x->id);
    r->target_mode = (uint8_t)c->mode;
    r->stack_id = current_stack(c, ip);
    add_step(r, g, new_edge);
    r->steps[0].stack_id = r->stack_id; /* this edge: the acquisition happening now */
    r->steps[0].to_mode = (uint8_t)c->mode;
    r->steps[0].tid = c->t->tid;
    r->steps[0].serial = c->t->serial;
    for (int i = 0; i < n; i++)
        add_step(r, g, path[i]);
    if (is_class) { /* the cycle's classes (each step's source), with a lock seen in each */
        for (int i = 0; i <= n && i < r->nsteps; i++) {
            struct uld_edge *e = i == 0 ? new_edge : path[i - 1];
            r->classes[r->nclasses] = ((struct uld_class *)e->from->owner)->node.id;
            r->class_lock[r->nclasses++] = r->steps[i].from;
        }
    }
    fill_held(r, c->t, 0);
    uld_report_submit(r, key);
}

/* The lock id guarding both the new edge and every edge of the path, or 0. */
static uint32_t common_gate(struct uld_edge *new_edge, struct uld_edge **path, int n)
{
    for (int i = 0; i < new_edge->ngates; i++)
        if (uld_path_gated_by(path, n, new_edge->gates[i]))
            return new_edge->gates[i];
    return 0;
}

static void check_cycle(struct order_ctx *c, struct uld_graph *g, struct uld_edge *e,
                        int from_shared, uintptr_t ip)
{
    struct uld_edge *path[ULD_MAX_CYCLE];
    if (c->reach != REACH_DONE) {
        int r = uld_bfs_reach_toward(e->to, c->x_rread, c->reach == REACH_PARTIAL, e->from);
        if (r == 0) { /* nothing leads from x back to h */
            c->reach = REACH_PARTIAL;
            return;
        }
        if (r < 0)
            uld_table_full("cycle-search queue", ULD_BFS_QUEUE, NULL);
        c->reach = REACH_DONE;
    }
    int n = uld_bfs_closes(e->to, e->from, from_shared, path, ULD_MAX_CYCLE);
    if (n <= 0)
        return;
    if (common_gate(e, path, n)) {
        /* Every edge ran under one exclusive lock: look for an unguarded cycle. */
        n = uld_bfs_ungated(e->to, c->x_rread, e->from, from_shared, e->gates, e->ngates,
                            path, ULD_MAX_CYCLE);
        c->reach = REACH_NONE; /* the gated search used the queue */
        if (n <= 0)
            return;
    }
    report_cycle(c, g, e, path, n, ip);
}

/* Record from -> to in graph g for held entry h; check for a cycle if it is news. */
static void add_dependency(struct order_ctx *c, struct uld_graph *g, struct uld_node *from,
                           struct uld_node *to, const struct uld_held *h,
                           struct uld_lock *hl, const uint32_t *gates, int ngates,
                           uintptr_t ip)
{
    struct uld_edge *e;
    unsigned type = uld_dep_type(h->mode & ULD_MODE_READ, c->x_rread);
    enum uld_edge_change ch = uld_graph_add(g, from, to, type, gates, ngates, &e);
    if (ch == ULD_EDGE_FULL) {
        uld_table_full("dependency-edge", uld_config.max_edges, "max_edges");
        return;
    }
    if (ch == ULD_EDGE_NEW || ch == ULD_EDGE_NEW_TYPE) {
        /* remember the recording that made the edge what it is now */
        e->stack_id = current_stack(c, ip);
        e->from_mode = h->mode;
        e->to_mode = (uint8_t)c->mode;
        e->from_ip = h->ip;
        e->tid = c->t->tid;
        e->thread_serial = c->t->serial;
        e->from_lock = hl;
        e->from_lock_id = hl->id;
        e->to_lock = c->x;
        e->to_lock_id = c->x->id;
    }
    if ((ch != ULD_EDGE_SAME && c->search) || c->search == 2)
        check_cycle(c, g, e, h->mode & ULD_MODE_READ, ip);
}

/* Exclusively held locks other than `skip`, oldest first: candidate gates. */
/*
 * Exclusively held locks other than the edge's ends, oldest first: the
 * candidate gates.  In the instance graph a gate is a lock (its id); in the
 * class graph, a class: two locks of one class serialise the cycle's edges
 * exactly when the cycle's classes are also the same objects.
 */
static int gates_for(const struct uld_thread *t, struct uld_graph *g, const struct uld_node *from,
                     const struct uld_node *to, uint32_t skip, uint32_t x_id, uint32_t *out)
{
    int n = 0;
    for (int i = 0; i < t->depth && n < ULD_MAX_GATES; i++) {
        const struct uld_held *h = &t->held[i];
        struct uld_lock *gl;
        if ((h->mode & (ULD_MODE_READ | ULD_MODE_NOCHECK)) || h->lock_id == skip ||
            h->lock_id == x_id || !(gl = held_lock(h)))
            continue;
        uint32_t id = g == &uld_lock_graph ? h->lock_id : uld_lock_class(gl, h->subclass)->node.id;
        if (id == from->id || id == to->id)
            continue;
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= out[j] == id;
        if (!dup)
            out[n++] = id;
    }
    return n;
}

static void order_pass(struct order_ctx *c, struct uld_graph *g, uintptr_t ip)
{
    struct uld_thread *t = c->t;
    struct uld_node *xn = g == &uld_lock_graph ? uld_lock_node(c->x, c->subclass)
                                               : &uld_lock_class(c->x, c->subclass)->node;
    c->reach = REACH_NONE;
    for (int i = c->skip; i < t->depth; i++) {
        const struct uld_held *h = &t->held[i];
        struct uld_lock *hl;
        if ((h->mode & ULD_MODE_NOCHECK) || !(hl = held_lock(h)) || hl == c->x)
            continue;
        struct uld_node *hn = g == &uld_lock_graph ? uld_lock_node(hl, h->subclass)
                                                   : &uld_lock_class(hl, h->subclass)->node;
        if (hn == xn) /* same class: judged by instance order, not flagged */
            continue;
        uint32_t gates[ULD_MAX_GATES];
        int ngates = gates_for(t, g, hn, xn, h->lock_id, c->x->id, gates);
        add_dependency(c, g, hn, xn, h, hl, gates, ngates, ip);
    }
}

static void check_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                          unsigned mode, uintptr_t ip, int skip)
{
    if (atomic_load(&l->addr) == 0) /* destroyed under our feet */
        return;
    struct order_ctx c = {
        .t = t,
        .x = l,
        .subclass = subclass,
        .mode = mode,
        .search = 1,
        .x_rread = (mode & ULD_MODE_READ) && uld_read_is_recursive(l),
        .skip = skip,
    };
    if (atomic_load_explicit(&uld_signal_handlers, memory_order_relaxed))
        uld_check_signal_context(t, l, mode, ip);
    /* a trylock never blocks: neither a relock nor a dependency into it */
    if ((mode & ULD_MODE_TRY) || check_relock(&c, ip))
        return;
    order_pass(&c, &uld_lock_graph, ip);
    order_pass(&c, &uld_class_graph, ip);
}

void uld_check_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                       unsigned mode, uintptr_t ip)
{
    check_acquire(t, l, subclass, mode, ip, 0);
}

void uld_check_first_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                             unsigned mode, uintptr_t ip, int born_under)
{
    check_acquire(t, l, subclass, mode, ip, born_under);
}

/* ---- misuse ----------------------------------------------------------- */

static void report_misuse(int kind, struct uld_thread *t, struct uld_lock *l, uintptr_t ip,
                          const char *detail, int other_tid)
{
    uint64_t key = mix64(mix64(kind, l ? l->cls->node.id : 0), ip);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(kind);
    if (!r)
        return;
    uld_report_fill_thread(r, t, ip);
    r->target = l ? uld_report_add_lock(r, l, 0) : -1;
    r->stack_id = uld_stack_capture();
    r->other_tid = other_tid;
    uld_snprintf(r->detail, sizeof(r->detail), "%s", detail);
    fill_held(r, t, 0);
    uld_report_submit(r, key);
}

void uld_check_unlock_misuse(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                             enum uld_owner_hint owner, uintptr_t ip)
{
    if (owner == ULD_OWNER_SELF)
        return; /* ours, acquired where we could not see it (e.g. before start-up) */
    struct uld_lock *l = uld_lock_lookup(addr);
    if (!l)
        l = uld_lazy_record(addr, d); /* initialised, never acquired */
    if (!l && atomic_load(&uld_untracked_locks))
        return; /* a table filled up: it may have been locked untracked */
    int unknown = !l;
    if (!l)
        l = uld_lock_first_use(addr, d, ip);
    if (l)
        l->misused = ULD_MISUSED_UNLOCK; /* glibc's reader count or owner may be wrong now */
    /* never initialised nor acquired, yet locked: not a lock we know at all */
    if (unknown && owner != ULD_OWNER_NONE)
        report_misuse(ULD_R_INVALID_LOCK, t, l, ip,
                      "unlock of memory that was never initialised or acquired as a lock "
                      "and does not look unlocked",
                      0);
    else if (owner == ULD_OWNER_OTHER)
        report_misuse(ULD_R_UNLOCK_NOT_OWNER, t, l, ip,
                      "unlock of a lock held by another thread", 0);
    else
        report_misuse(ULD_R_UNLOCK_NOT_HELD, t, l, ip, "unlock of a lock that is not held",
                      0);
}

/*
 * A lock call on a destroyed lock (tomb.c).  rec is its retired record,
 * named with its id and address as they were.
 */
void uld_check_use_after_destroy(struct uld_thread *t, struct uld_lock *rec, uint32_t id,
                                 uintptr_t addr, uintptr_t destroy_ip, int op, uintptr_t ip)
{
    uint64_t key = mix64(mix64(ULD_R_USE_AFTER_DESTROY, rec->cls ? rec->cls->node.id : 0), ip);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(ULD_R_USE_AFTER_DESTROY);
    if (!r)
        return;
    uld_report_fill_thread(r, t, ip);
    r->target = rec->cls ? uld_report_add_lock(r, rec, 0) : -1;
    if (r->target >= 0) {
        r->locks[r->target].id = id;
        r->locks[r->target].addr = addr;
    }
    r->stack_id = uld_stack_capture();
    r->prior_ip = destroy_ip;
    const char *type = uld_lock_type_name(rec->type);
    const char *fn = rec->type == ULD_TYPE_RWLOCK ? "rwlock" : rec->type == ULD_TYPE_SPIN ? "spin" : "mutex";
    if (op == ULD_DEAD_DESTROY)
        uld_snprintf(r->detail, sizeof(r->detail), "%s destroyed twice", type);
    else
        uld_snprintf(r->detail, sizeof(r->detail),
                     "%s of a %s after pthread_%s_destroy, with no init since",
                     op == ULD_DEAD_LOCK ? "lock" : "unlock", type, fn);
    fill_held(r, t, 0);
    uld_report_submit(r, key);
}

/*
 * A trylock that failed (EBUSY) because this very thread holds the lock:
 * harmless here, but the lock call it stands for would never return.
 */
void uld_check_trylock_held(struct uld_thread *t, struct uld_lock *l, uintptr_t ip)
{
    report_misuse(ULD_R_TRYLOCK_HELD, t, l, ip,
                  "trylock failed because this thread already holds the lock; "
                  "a blocking lock here would deadlock",
                  0);
}

void uld_check_destroy_held(struct uld_thread *t, struct uld_lock *l, uintptr_t addr,
                            int held_elsewhere, int freed, uintptr_t ip)
{
    (void)addr;
    if (!l)
        return; /* locked where we could not see it: nothing reliable to say */
    if (held_elsewhere && l->misused)
        return; /* "held" by the state an earlier, reported misuse corrupted */
    const char *what = freed ? held_elsewhere ? "memory freed while another thread holds the lock"
                                              : "memory freed while this thread holds the lock"
                       : held_elsewhere ? "lock destroyed while another thread holds it"
                                        : "lock destroyed while this thread holds it";
    report_misuse(ULD_R_DESTROY_HELD, t, l, ip, what, 0);
}

void uld_check_reinit_held(struct uld_thread *t, struct uld_lock *l, int held_elsewhere,
                           uintptr_t ip)
{
    if (held_elsewhere && l->misused)
        return; /* as for destroy: the object's state may be an earlier misuse's */
    report_misuse(ULD_R_DESTROY_HELD, t, l, ip,
                  held_elsewhere ? "lock re-initialised while another thread holds it"
                                 : "lock re-initialised while this thread holds it",
                  0);
}

void uld_check_cond_destroy_waiters(struct uld_thread *t, struct uld_lock *cond, int waiters,
                                    uintptr_t ip)
{
    char what[120];
    uld_snprintf(what, sizeof(what),
                 "condition variable destroyed while %d thread%s wait%s on it", waiters,
                 waiters == 1 ? "" : "s", waiters == 1 ? "s" : "");
    report_misuse(ULD_R_DESTROY_HELD, t, cond, ip, what, 0);
}

void uld_check_fork_holding(struct uld_thread *t, uintptr_t addr, int owner_tid, uintptr_t ip)
{
    struct uld_lock *l = uld_lock_lookup(addr);
    if (!l)
        return; /* never seen in the parent either: nothing reliable to say */
    char what[160];
    if (owner_tid > 0)
        uld_snprintf(what, sizeof(what),
                     "held by another thread (tid %d in the parent) when the process forked: "
                     "in this child it stays locked forever",
                     owner_tid);
    else
        uld_snprintf(what, sizeof(what), "held by another thread when the process forked: "
                                         "in this child it stays locked forever");
    report_misuse(ULD_R_FORK_HOLDING, t, l, ip, what, owner_tid);
}

void uld_check_assert_held(struct uld_thread *t, uintptr_t addr, uintptr_t ip)
{
    if (uld_held_find(t, addr) >= 0)
        return;
    struct uld_lock *l = uld_lock_lookup(addr);
    if (!l)
        l = uld_lazy_record_mine(t, addr);
    if (!l)
        l = uld_lock_first_use(addr, (struct uld_lockdesc){.type = ULD_TYPE_CUSTOM, .flags = 0}, ip);
    report_misuse(ULD_R_ASSERT_NOT_HELD, t, l, ip, "uld_assert_held() failed", 0);
}

/*
 * A robust mutex held at exit is not counted: glibc hands it to the next
 * locker with EOWNERDEAD, the protocol such programs are written for, so
 * nobody hangs on it.
 */
static void exit_holding(struct uld_thread *t, const char *what);

void uld_check_exit_holding(struct uld_thread *t)
{
    exit_holding(t, "thread exiting while holding");
}

static void exit_holding(struct uld_thread *t, const char *what)
{
    uint32_t ids[ULD_R_MAX_HELD];
    int n = 0;
    for (int i = 0; i < t->depth && n < ULD_R_MAX_HELD; i++) {
        struct uld_lock *l = held_lock(&t->held[i]);
        /* a semaphore's token may be posted by another thread after this one ended */
        if (l && !(l->flags & ULD_LF_ROBUST) && l->type != ULD_TYPE_SEM)
            ids[n++] = l->cls->node.id;
    }
    if (n == 0)
        return;
    uint64_t key = key_of_set(ULD_R_EXIT_HOLDING, ids, n);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(ULD_R_EXIT_HOLDING);
    if (!r)
        return;
    uld_report_fill_thread(r, t, 0);
    r->target = -1;
    uld_snprintf(r->detail, sizeof(r->detail), "%s %d lock%s", what, t->depth,
                 t->depth == 1 ? "" : "s");
    fill_held(r, t, 1);
    uld_report_submit(r, key);
}

/* A fatal signal ends the process while t holds locks (watchdog.c). */
void uld_check_exit_holding_signal(struct uld_thread *t, int sig)
{
    const char *name = sigabbrev_np(sig);
    char what[96];
    uld_snprintf(what, sizeof(what), "SIG%s ends the process while this thread holds",
                 name ? name : "?");
    exit_holding(t, what);
}

/* ---- waits and wake-ups -------------------------------------------------- */

static struct uld_waitobj *waitobj(struct uld_lock *w)
{
    if (!w->wait)
        w->wait = uld_alloc(sizeof(*w->wait));
    return w->wait;
}

/* 0 -> serial -> MANY: who made the waits or wake-ups of one object. */
static uint32_t note_thread(_Atomic uint32_t *who, uint32_t serial)
{
    uint32_t was = atomic_load(who);
    if (was != serial && was != ULD_MANY_THREADS)
        atomic_store(who, was ? ULD_MANY_THREADS : serial);
    return was;
}

/*
 * The thread is about to wait on w: record held -> w for every lock it
 * holds.  If every wake-up seen so far is its own, none of them says who
 * will end this wait: record the edges without a search; the caller keys
 * such a wait apart in the chain cache (uld_wait_self_woken), so once
 * another thread has woken w the same wait is checked again, with a
 * search.  Otherwise search even from edges that exist already: such a
 * wait may have recorded them.
 */
int uld_check_wait(struct uld_thread *t, struct uld_lock *w, uintptr_t ip)
{
    struct uld_waitobj *wo = waitobj(w);
    int self_woken = wo && atomic_load(&wo->waker) == t->serial;
    if (wo && t->depth > 0)
        note_thread(&wo->waiter, t->serial);
    struct order_ctx c = {.t = t, .x = w, .search = self_woken ? 0 : 2};
    order_pass(&c, &uld_lock_graph, ip);
    return 1;
}

/* A join or barrier wait: only other threads can end it. */
int uld_check_wait_on_others(struct uld_thread *t, struct uld_lock *w, uintptr_t ip)
{
    struct order_ctx c = {.t = t, .x = w, .search = 2};
    order_pass(&c, &uld_lock_graph, ip);
    return 1;
}

/* Locks that a wake-up of w happens with: held now, plus, for a semaphore
 * this thread waited on, the locks it took since (a semaphore used as a lock).
 * A lock taken by trylock is not one: its taker never waits for it (no
 * order edge goes into a tried lock either), and a lock held since long
 * before, such as the semaphore a Python thread holds from its start to its
 * end (taken by sem_trywait), would make every wake-up it ever sends need it.
 * (A semaphore token taken by a wait is held as a trylock too: it counts.) */
static int waker_waited_for(unsigned mode)
{
    return !(mode & ULD_MODE_NOCHECK) && (!(mode & ULD_MODE_TRY) || (mode & ULD_MODE_WAITED));
}

static int wake_context(struct uld_thread *t, struct uld_lock *w, struct uld_needed *out)
{
    int n = 0, i = 0;
    /* a semaphore held as a lock is released by its post: the locks taken
     * before its token are not needed to reach the post */
    for (int j = 0; j < t->depth; j++)
        if (t->held[j].addr == atomic_load(&w->addr) && held_lock(&t->held[j]) == w)
            i = j + 1;
    for (; i < t->depth && n < ULD_MAX_NEEDED; i++) {
        const struct uld_held *h = &t->held[i];
        struct uld_lock *l = held_lock(h);
        if (l && l != w && waker_waited_for(h->mode))
            out[n++] = (struct uld_needed){l, l->id, h->subclass, h->mode, h->ip};
    }
    if (t->sem_addr == atomic_load(&w->addr)) {
        for (int i = 0; i < t->sem_nacq && n < ULD_MAX_NEEDED; i++) {
            const struct uld_needed *s = &t->sem_acq[i];
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= out[j].id == s->id;
            if (!dup && waker_waited_for(s->mode) && s->lock->id == s->id &&
                atomic_load(&s->lock->addr))
                out[n++] = *s;
        }
    }
    return n;
}

/* Record w -> l: a wake-up of w needs l.  Checks for a cycle through it. */
static void add_wake_dependency(struct uld_thread *t, struct uld_lock *w,
                                const struct uld_needed *nd, int search, uintptr_t ip)
{
    struct uld_edge *e;
    int rread = (nd->mode & ULD_MODE_READ) && uld_read_is_recursive(nd->lock);
    struct order_ctx c = {.t = t, .x = nd->lock, .subclass = nd->subclass,
                          .mode = nd->mode, .x_rread = rread};
    enum uld_edge_change ch = uld_graph_add(&uld_lock_graph, &w->node,
                                            uld_lock_node(nd->lock, nd->subclass),
                                            uld_dep_type(0, rread), NULL, 0, &e);
    if (ch == ULD_EDGE_FULL) {
        uld_table_full("dependency-edge", uld_config.max_edges, "max_edges");
        return;
    }
    if (ch == ULD_EDGE_NEW) {
        e->stack_id = current_stack(&c, ip);
        e->from_ip = nd->ip; /* for a wake-up: where the needed lock was taken */
        e->tid = t->tid;
        e->thread_serial = t->serial;
        e->from_lock = w;
        e->from_lock_id = w->id;
        e->to_lock = nd->lock;
        e->to_lock_id = nd->id;
        e->from_mode = ULD_MODE_WAKE;
        e->to_mode = nd->mode;
    }
    if ((ch != ULD_EDGE_SAME && search) || search == 2)
        check_cycle(&c, &uld_lock_graph, e, 0, ip);
}

/*
 * Ending w (a thread's end) needs nd->lock, taken by thread (tid, serial)
 * where `stack` was captured (0: the calling thread, now).  A need noted
 * earlier and recorded only now, when something waits for w holding locks
 * (wait.c), keeps the thread and stack of its acquisition.
 */
void uld_check_needs(struct uld_thread *t, struct uld_lock *w, const struct uld_needed *nd,
                     const struct uld_need_origin *o, int search, uintptr_t ip)
{
    struct uld_edge *e;
    int rread = (nd->mode & ULD_MODE_READ) && uld_read_is_recursive(nd->lock);
    struct order_ctx c = {.t = t, .x = nd->lock, .subclass = nd->subclass,
                          .mode = nd->mode, .x_rread = rread, .stack_id = o->stack};
    enum uld_edge_change ch = uld_graph_add(&uld_lock_graph, &w->node,
                                            uld_lock_node(nd->lock, nd->subclass),
                                            uld_dep_type(0, rread), NULL, 0, &e);
    if (ch == ULD_EDGE_FULL) {
        uld_table_full("dependency-edge", uld_config.max_edges, "max_edges");
        return;
    }
    if (ch == ULD_EDGE_NEW) {
        e->stack_id = current_stack(&c, ip);
        e->from_ip = nd->ip; /* where the needed lock was taken */
        e->tid = o->tid;
        e->thread_serial = o->serial;
        e->from_lock = w;
        e->from_lock_id = w->id;
        e->to_lock = nd->lock;
        e->to_lock_id = nd->id;
        e->from_mode = ULD_MODE_WAKE;
        e->to_mode = nd->mode;
    }
    if (search && ch != ULD_EDGE_SAME)
        check_cycle(&c, &uld_lock_graph, e, 0, ip);
}

/*
 * A wake-up of w.  Its dependencies are the locks held at *every* wake-up
 * seen so far: a lock only one of several wakers holds does not make a
 * waiter holding it deadlock, so it is dropped as soon as a wake-up without
 * it is seen.
 *
 * A waker's own waits are not ended by its wake-ups: the first wake-up
 * searches for cycles only if some other thread waited holding locks.
 * Once a second thread has woken w, every waiter has a waker other than
 * itself, so the edges that survived are searched again.
 */
int uld_check_wake(struct uld_thread *t, struct uld_lock *w, uintptr_t ip)
{
    struct uld_waitobj *wo = waitobj(w);
    struct uld_needed cur[ULD_MAX_NEEDED];
    if (!wo)
        return 1;
    int n = wake_context(t, w, cur);
    if (t->sem_addr == atomic_load(&w->addr))
        t->sem_addr = 0; /* the post ends what the wait began */
    uint32_t was = note_thread(&wo->waker, t->serial);
    if (!wo->woken) {
        uint32_t waiter = atomic_load(&wo->waiter);
        wo->woken = 1;
        wo->nneeded = n;
        memcpy(wo->needed, cur, (size_t)n * sizeof(cur[0]));
        for (int i = 0; i < n; i++)
            add_wake_dependency(t, w, &cur[i], waiter == t->serial ? 0 : 1, ip);
        return 1;
    }
    int kept = 0;
    for (int i = 0; i < wo->nneeded; i++) {
        struct uld_needed *nd = &wo->needed[i];
        int still = 0;
        for (int j = 0; j < n; j++)
            still |= cur[j].id == nd->id;
        if (still && nd->lock->id == nd->id) {
            wo->needed[kept++] = *nd;
            if (was != t->serial && was != ULD_MANY_THREADS) /* a second waker */
                add_wake_dependency(t, w, nd, 2, ip);
            continue;
        }
        if (nd->lock->id == nd->id) { /* a wake-up without it: not needed after all */
            struct uld_edge *e = uld_graph_find(&uld_lock_graph, &w->node,
                                                uld_lock_node(nd->lock, nd->subclass));
            if (e)
                uld_graph_remove_edge(&uld_lock_graph, e);
        }
    }
    wo->nneeded = kept;
    return 1;
}

void uld_check_cond_mismatch(struct uld_thread *t, struct uld_lock *cond, uintptr_t mutex,
                             const char *what, uintptr_t ip)
{
    struct uld_lock *m = uld_lock_lookup(mutex);
    uint64_t key = mix64(mix64(mix64(ULD_R_COND_MISMATCH, cond->cls->node.id),
                               m ? m->cls->node.id : 0),
                         ip);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(ULD_R_COND_MISMATCH);
    if (!r)
        return;
    uld_report_fill_thread(r, t, ip);
    r->target = uld_report_add_lock(r, cond, 0);
    if (m)
        uld_report_add_lock(r, m, 0);
    r->stack_id = uld_stack_capture();
    uld_snprintf(r->detail, sizeof(r->detail), "%s", what);
    fill_held(r, t, 0);
    uld_report_submit(r, key);
}

/* ---- signal context --------------------------------------------------------- */

static int lowest_signal(uint64_t set)
{
    return set ? __builtin_ctzll(set) + 1 : 0;
}

static void report_signal_unsafe(struct uld_thread *t, struct uld_lock *l, int sig,
                                 uintptr_t ip)
{
    struct uld_class *cls = l->cls;
    uint64_t key = mix64(mix64(ULD_R_SIGNAL_UNSAFE, cls->node.id), (uint64_t)sig);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(ULD_R_SIGNAL_UNSAFE);
    if (!r)
        return;
    uld_report_fill_thread(r, t, ip);
    r->target = uld_report_add_lock(r, l, 0);
    r->signo = sig;
    /* two uses of the lock: inside the handler, and interruptible by it */
    r->steps[0] = (struct uld_rstep){.from = r->target, .to = r->target,
                                     .stack_id = cls->sig_handler_stack,
                                     .from_ip = cls->sig_handler_ip,
                                     .serial = cls->sig_handler_serial};
    r->steps[1] = (struct uld_rstep){.from = r->target, .to = r->target,
                                     .stack_id = cls->sig_unblocked_stack,
                                     .from_ip = cls->sig_unblocked_ip,
                                     .serial = cls->sig_unblocked_serial};
    r->nsteps = 2;
    struct uld_thread_info ti;
    for (int i = 0; i < 2; i++)
        if (uld_thread_info(r->steps[i].serial, &ti))
            r->steps[i].tid = ti.tid;
    const char *name = sigabbrev_np(sig);
    uld_snprintf(r->detail, sizeof(r->detail),
                 "taken in a handler for SIG%s and where SIG%s can interrupt its holder",
                 name ? name : "?", name ? name : "?");
    fill_held(r, t, 0);
    uld_report_submit(r, key);
}

/*
 * The kernel's irq-safety rule for signals: a lock taken inside a handler
 * for S must never be held where S can arrive, or the handler deadlocks on
 * its own thread.  Handler-side trylocks do not count: they cannot block.
 */
void uld_check_signal_context(struct uld_thread *t, struct uld_lock *l, unsigned mode,
                              uintptr_t ip)
{
    struct uld_class *cls = l->cls;
    if (uld_is_wait_type(l->type))
        return;
    if (t->in_signal) {
        uint64_t bit = 1ull << (t->in_signal - 1);
        if ((mode & ULD_MODE_TRY) || (cls->sig_in_handler & bit))
            goto check;
        cls->sig_in_handler |= bit;
        cls->sig_handler_stack = uld_stack_capture();
        cls->sig_handler_serial = t->serial;
        cls->sig_handler_ip = ip;
    } else {
        uint64_t unblocked = ~t->blocked;
        if (!(unblocked & ~cls->sig_unblocked))
            goto check;
        /* newly unblocked signals: this acquisition is the example to show */
        cls->sig_unblocked_stack = uld_stack_capture();
        cls->sig_unblocked_serial = t->serial;
        cls->sig_unblocked_ip = ip;
        cls->sig_unblocked |= unblocked;
    }
check:;
    uint64_t bad = cls->sig_in_handler & cls->sig_unblocked & ~cls->sig_reported;
    if (!bad)
        return;
    cls->sig_reported |= bad;
    report_signal_unsafe(t, l, lowest_signal(bad), ip);
}
