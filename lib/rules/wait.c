/*
 * wait.c - waits beyond condition variables and semaphores: a thread's end
 * (pthread_join) and barriers; who woke a wait object (for hang reports).
 *
 * A thread's end is a wait object at the address of its pthread_t, made
 * when the thread starts (so a new thread at a reused descriptor inherits
 * nothing) and forgotten when it is joined.  Every lock the thread takes
 * with a blocking call is needed before it can end: W_T -> L, noted on the
 * thread's first acquisition of L (a memo miss, so the fast path stays
 * untouched; a per-thread filter keeps it to once per lock) in a list of
 * the thread's own, without a global lock.  The list becomes graph edges
 * when they can matter: a join made holding locks (before its search), and
 * the thread's end (the join may come later).  A join with L held records
 * L -> W_T; either edge may close the cycle, whichever comes last, so the
 * deadlock is reported whether the thread took L before the join or is
 * about to take it now.
 *
 * A barrier is ended by its other participants' arrivals.  Each arrival
 * leaves, per thread, the locks it held and the locks it took since its
 * previous pass (it needed them to get there); a thread waiting holding L
 * while another participant needed L to arrive is a wait-for cycle.  The
 * "since" set is exact because a pass sets the thread's memo aside: the next
 * acquisition of each lock comes through the slow path again.
 *
 * Everything runs with graph_lock held unless it says otherwise.
 */
#include "wait.h"

#include "model/chain.h"
#include "base/config.h"
#include "rules.h"
#include "model/state.h"
#include "report/report.h"
#include "model/stack.h"
#include "model/stackmemo.h"
#include "model/lazy.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

static char thread_end_class; /* every thread's end: one class */
static char barrier_class_key;

#define NEEDS_FILTER 64
#define NEEDS_LIST 64
#define NEED_STACKS 16
#define NEED_STACKS_WIDE 256
#define SINCE_MAX 8
#define RL_MAX 8
#define BAR_PARTS 8

/*
 * A thread's needs that are not graph edges yet: v[base..n).  The thread
 * appends without graph_lock (the entry, then the count with release) and
 * forgets what it needed so far by moving `base` up to the count (an
 * announcement), also without it; everything that moves entries or lowers
 * the bounds (a joiner's read, the thread's compaction and detach) holds
 * graph_lock, so a reader under it sees whole entries below the count it
 * loaded: no entry at or above a base it read is written until the next
 * compaction.  `waited` is set by a join made holding locks: from then on
 * the thread records each new need at once, and forgets under graph_lock
 * (a store then a load on both sides, with a full fence between: one of
 * the two sees the other's store).
 */
struct uld_end_needs {
    _Atomic int n;
    _Atomic int base;
    _Atomic int waited;
    int tid;
    uint32_t serial;
    struct end_need {
        struct uld_needed nd;
        uint32_t stack; /* where the thread took it */
    } v[NEEDS_LIST];
    /* the thread's own: a stack per (class, acquisition site), captured
     * once; a thread that takes locks at more sites than the small table
     * holds gets the wide one (sqlite's threads: 100 to 200 sites, each
     * evicted site captured again with graph_lock held) */
    struct need_stack {
        const struct uld_class *cls;
        uintptr_t ip;
        uint32_t stack;
    } stacks[NEED_STACKS], *wide;
    /* the needs of recordless entries (recordless.c): by address and
     * pending tag, made records of when read (rl_record); a slot is
     * written between two changes of its seq (odd meanwhile) */
    _Atomic int rl_n;
    struct rl_need {
        _Atomic uint32_t seq;
        uintptr_t addr;
        uint64_t *tag_word;
        uint64_t tag;
        uintptr_t ip;
        uint32_t stack;
    } rl[RL_MAX];
};

/* Per thread: lock ids already noted as needed by its end; locks taken
 * since its last barrier pass. */
static __thread uint32_t needs_seen[NEEDS_FILTER] __attribute__((tls_model("initial-exec")));
static __thread struct uld_lock *own_end __attribute__((tls_model("initial-exec")));
static __thread uint32_t own_end_id __attribute__((tls_model("initial-exec")));
static __thread struct uld_end_needs *own_needs __attribute__((tls_model("initial-exec")));
static __thread struct uld_needed since[SINCE_MAX] __attribute__((tls_model("initial-exec")));
static __thread int nsince __attribute__((tls_model("initial-exec")));
/* the same for recordless entries (recordless.c), made records of at arrival */
static __thread struct rl_taken {
    uintptr_t addr;
    uint64_t *tag_word;
    uint64_t tag;
    uintptr_t ip;
} since_rl[SINCE_MAX] __attribute__((tls_model("initial-exec")));
static __thread int nsince_rl __attribute__((tls_model("initial-exec")));
static __thread int since_next __attribute__((tls_model("initial-exec"))); /* probe start when full */
/* uld_lock_retirements when the full `since` list was last found all live:
 * entries added since were live then, so none can be dead while it holds */
static __thread uint64_t since_all_live __attribute__((tls_model("initial-exec")));

struct barrier_part {
    uint32_t serial;
    int tid;
    uint32_t stack; /* where it arrived */
    uintptr_t ip;
    int nheld, nneeds;
    struct uld_needed held[SINCE_MAX], needs[2 * SINCE_MAX];
};

struct uld_barrier {
    int next; /* slot replaced when a new participant finds none free */
    struct barrier_part part[BAR_PARTS];
};

static uint64_t mix64(uint64_t h, uint64_t v)
{
    return uld_chain_mix(uld_chain_mix(h, (uint32_t)v, 0), (uint32_t)(v >> 32), 1);
}

static int needed_live(const struct uld_needed *n)
{
    return n->lock && n->lock->id == n->id && atomic_load(&n->lock->addr);
}

/* ---- a thread's end ------------------------------------------------------ */

void uld_wait_thread_begins(struct uld_thread *t)
{
    uintptr_t self = (uintptr_t)pthread_self();
    int saved = errno;
    memset(needs_seen, 0, sizeof(needs_seen));
    nsince = nsince_rl = 0;
    t->recordless_needs = 0;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *old = uld_lock_lookup(self);
    if (old) /* a thread that was never joined had this descriptor */
        uld_lock_forget(old);
    struct uld_lock *w = uld_lock_create(self, (struct uld_lockdesc){.type = ULD_TYPE_THREAD},
                                         ULD_SITE_ANNOTATION, 0, &thread_end_class);
    struct uld_end_needs *en = w && w->wait ? uld_alloc(sizeof(*en)) : NULL;
    if (w) {
        char name[32];
        uld_snprintf(name, sizeof(name), "thread T%u", t->serial);
        w->name = uld_strdup(name);
        if (!w->cls->name)
            w->cls->name = uld_strdup("thread end");
        uld_wait_note_waker(w, t->serial); /* nothing but the thread ends it */
    }
    if (en) {
        en->tid = t->tid;
        en->serial = t->serial;
        w->wait->end = en;
    }
    own_end = w;
    own_end_id = w ? w->id : 0;
    own_needs = en;
    uld_mutex_unlock(&uld_graph_lock);
    errno = saved;
}

/* A blocking acquisition that succeeded (a timed one that expired did not
 * need the lock to get anywhere); lock-free. */
static inline void note_taken(struct uld_lock *l, unsigned subclass, unsigned mode,
                              uintptr_t ip)
{
    struct uld_needed n = {l, l->id, (uint8_t)subclass, (uint8_t)mode, ip};
    if (nsince < SINCE_MAX) {
        for (int i = 0; i < nsince; i++)
            if (since[i].id == l->id)
                return;
        since[nsince++] = n;
        return;
    }
    /* Full: a lock destroyed since can no longer be needed, so its entry
     * makes room.  Probing from where the last one was found costs one
     * check when short-lived locks fill the list; a duplicate entry is
     * harmless (readers skip it).  A scan that found every entry live is
     * not repeated until some lifetime ends (a thread that keeps taking
     * long-lived locks would pay it on every slow acquisition). */
    uint64_t retired = atomic_load_explicit(&uld_lock_retirements, memory_order_acquire);
    if (retired == since_all_live)
        return;
    for (int k = 0; k < SINCE_MAX; k++) {
        int i = (since_next + k) % SINCE_MAX;
        if (!needed_live(&since[i])) {
            since[i] = n;
            since_next = (i + 1) % SINCE_MAX;
            return;
        }
    }
    since_all_live = retired;
}

static int own_end_live(void)
{
    struct uld_lock *w = own_end;
    return w && w->id == own_end_id && atomic_load(&w->addr);
}

/* Recordless need i of en, read whole, as a need of its lock's record
 * (made if the lock is still there).  0: none.  graph_lock held. */
static int rl_read(struct uld_end_needs *en, int i, struct end_need *out)
{
    struct rl_need *x = &en->rl[i];
    uint32_t seq = atomic_load_explicit(&x->seq, memory_order_acquire);
    struct rl_need copy = {.addr = x->addr, .tag_word = x->tag_word, .tag = x->tag,
                           .ip = x->ip, .stack = x->stack};
    atomic_thread_fence(memory_order_acquire);
    if ((seq & 1) || atomic_load_explicit(&x->seq, memory_order_relaxed) != seq || !copy.addr)
        return 0; /* being dropped (destroyed) or replaced (the thread records that one) */
    struct uld_lock *l = uld_lazy_record_at(copy.addr, copy.tag_word, copy.tag);
    if (!l)
        return 0;
    *out = (struct end_need){{l, l->id, 0, 0, copy.ip}, copy.stack};
    return 1;
}

/* The recordless ones, as needs_record does.  graph_lock held. */
static void rl_record(struct uld_thread *t, struct uld_lock *w, struct uld_end_needs *en,
                      int search, uintptr_t ip)
{
    int n = atomic_load_explicit(&en->rl_n, memory_order_acquire);
    for (int i = 0; i < n; i++) {
        struct end_need x;
        if (rl_read(en, i, &x)) {
            struct uld_need_origin o = {x.stack, en->tid, en->serial};
            uld_check_needs(t, w, &x.nd, &o, search, ip);
        }
    }
}

/* Every live noted need of en as an edge w -> lock.  graph_lock held. */
static void needs_record(struct uld_thread *t, struct uld_lock *w, struct uld_end_needs *en,
                         int search, uintptr_t ip)
{
    int n = atomic_load_explicit(&en->n, memory_order_acquire);
    for (int i = atomic_load_explicit(&en->base, memory_order_relaxed); i < n; i++) {
        const struct end_need *x = &en->v[i];
        struct uld_need_origin o = {x->stack, en->tid, en->serial};
        if (needed_live(&x->nd))
            uld_check_needs(t, w, &x->nd, &o, search, ip);
    }
    rl_record(t, w, en, search, ip);
}

/* The list is full: drop the needs forgotten or of locks gone since, else
 * move them all into the graph.  Returns the new count.  Takes graph_lock. */
static int needs_make_room(struct uld_thread *t, struct uld_end_needs *en)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    int k = 0;
    for (int i = atomic_load_explicit(&en->base, memory_order_relaxed); i < NEEDS_LIST; i++)
        if (needed_live(&en->v[i].nd))
            en->v[k++] = en->v[i];
    if (k == NEEDS_LIST) {
        if (own_end_live())
            needs_record(t, own_end, en, own_end->node.in != NULL, 0);
        k = 0;
    }
    atomic_store_explicit(&en->base, 0, memory_order_relaxed);
    atomic_store_explicit(&en->n, k, memory_order_release);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return k;
}

/* Where this thread takes locks of l's class at ip: captured once, and on
 * a miss (the table is direct-mapped: unbound's threads lock at more
 * sites than it holds) from the thread's stack memo when the same call
 * chain was captured before (stackmemo.c). */
static struct need_stack *need_stack_slot(struct uld_end_needs *en, const struct uld_class *c,
                                          uintptr_t ip)
{
    uintptr_t h = ((uintptr_t)c >> 6) ^ ip ^ (ip >> 9);
    return en->wide ? &en->wide[h % NEED_STACKS_WIDE] : &en->stacks[h % NEED_STACKS];
}

static uint32_t need_stack(struct uld_thread *t, struct uld_end_needs *en,
                           const struct uld_lock *l, uintptr_t ip)
{
    struct need_stack *s = need_stack_slot(en, l->cls, ip);
    if (s->cls == l->cls && s->ip == ip && s->stack)
        return s->stack;
    if (s->stack && !en->wide && (en->wide = uld_alloc(NEED_STACKS_WIDE * sizeof(*s))))
        s = need_stack_slot(en, l->cls, ip);
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    uintptr_t outer = t->stack_anchor; /* an enclosing entry's, if any: kept */
    if (!outer)
        uld_stack_anchor_set(t, (uintptr_t)__builtin_frame_address(0));
    uint32_t id = uld_stack_capture_memo(t, ip);
    t->stack_anchor = outer;
    uld_mutex_unlock(&uld_graph_lock);
    errno = saved;
    *s = (struct need_stack){l->cls, ip, id};
    return id;
}

/* Someone already waits for this end holding locks: the need goes into the
 * graph now, searched from there (the report comes before the lock call
 * blocks), with this very stack. */
static void need_record_now(struct uld_thread *t, const struct uld_needed *nd, uintptr_t ip)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *w = own_end;
    if (own_end_live() && needed_live(nd)) {
        struct uld_need_origin o = {0, t->tid, t->serial};
        uld_check_needs(t, w, nd, &o, w->node.in != NULL, ip);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
}

/* A blocking acquisition that missed the memo; uld_busy is set, no lock held.
 * The need is noted in the thread's list, with no global lock and no stack
 * capture after the first at each (class, site); a join made holding locks
 * turns the list into graph edges (uld_join_begin). */
static inline void note_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                                unsigned mode, uintptr_t ip)
{
    struct uld_end_needs *en = own_needs;
    if (!en || needs_seen[l->id % NEEDS_FILTER] == l->id || uld_is_wait_type(l->type))
        return;
    needs_seen[l->id % NEEDS_FILTER] = l->id;
    struct uld_needed nd = {l, l->id, (uint8_t)subclass, (uint8_t)mode, ip};
    uint32_t stack = need_stack(t, en, l, ip);
    int n = atomic_load_explicit(&en->n, memory_order_relaxed);
    if (n == NEEDS_LIST)
        n = needs_make_room(t, en);
    en->v[n] = (struct end_need){nd, stack};
    atomic_store_explicit(&en->n, n + 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst); /* see struct uld_end_needs */
    if (atomic_load_explicit(&en->waited, memory_order_relaxed))
        need_record_now(t, &nd, ip);
}

/* The bodies above are inline here, the entry points below not: measured,
 * the slow path and the take-back both come out shorter so. */
void uld_wait_note_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                           unsigned mode, uintptr_t ip)
{
    note_acquire(t, l, subclass, mode, ip);
}

void uld_wait_note_taken(struct uld_lock *l, unsigned subclass, unsigned mode, uintptr_t ip)
{
    note_taken(l, subclass, mode, ip);
}

/* ---- the needs of recordless entries (recordless.c) ---------------------- */

/*
 * Both lists are kept in acquisition order, and the common lifetime (a
 * request's mutex: initialised, locked, unlocked, destroyed) only ever
 * touches their newest entries: its note appends, its destroy removes the
 * newest.  A note whose address is the newest entry's replaces it: that
 * earlier lifetime at the same address has ended (a re-initialisation, or
 * memory freed and reused without a destroy, which glibc allows).
 */

/* Where this thread last noted a recordless need: (class, site) and its
 * stack, so a lock made again at the same site skips the table. */
static __thread struct rl_site {
    uint32_t tag_class; /* the pending tag's upper half: "UP" and the class */
    uint32_t stack;
    uintptr_t ip;
} rl_site __attribute__((tls_model("initial-exec")));

static void rl_write(struct rl_need *x, uintptr_t addr, uint64_t *tag_word, uint64_t tag,
                     uintptr_t ip, uint32_t stack)
{
    uint32_t seq = atomic_load_explicit(&x->seq, memory_order_relaxed);
    atomic_store_explicit(&x->seq, seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    x->addr = addr;
    x->tag_word = tag_word;
    x->tag = tag;
    x->ip = ip;
    x->stack = stack;
    atomic_store_explicit(&x->seq, seq + 2, memory_order_release);
}

/* t->recordless_needs: how many notes of both kinds, for the inline destroy. */
static void rl_count_update(struct uld_thread *t)
{
    t->recordless_needs =
        nsince_rl + (own_needs ? atomic_load_explicit(&own_needs->rl_n, memory_order_relaxed) : 0);
}

static void rl_set_count(struct uld_thread *t, struct uld_end_needs *en, int n)
{
    atomic_store_explicit(&en->rl_n, n, memory_order_release);
    rl_count_update(t);
}

/* The "taken since" list is full: the entries whose lifetime ended make
 * room (their tag word says so; read safely, the memory may be gone).
 * Returns the new count. */
static int since_rl_make_room(void)
{
    int k = 0;
    for (int i = 0; i < nsince_rl; i++) {
        uint64_t now;
        if (uld_read_word(since_rl[i].tag_word, &now) && now == since_rl[i].tag)
            since_rl[k++] = since_rl[i];
    }
    return nsince_rl = k;
}

/* The barrier's "taken since" of a recordless entry, for this thread's
 * next arrival; 0: no room (the slow path notes it). */
static int since_rl_note(uintptr_t addr, uint64_t *tag_word, uint64_t tag, uintptr_t ip)
{
    int n = nsince_rl;
    struct rl_taken x = {addr, tag_word, tag, ip};
    if (n && since_rl[n - 1].addr == addr) {
        if (since_rl[n - 1].tag != tag) /* an earlier lifetime's */
            since_rl[n - 1] = x;
        return 1;
    }
    if (n == SINCE_MAX && (n = since_rl_make_room()) == SINCE_MAX)
        return 0;
    since_rl[n] = x;
    nsince_rl = n + 1;
    return 1;
}

/* Forget the recordless "taken since" entries of addr (0: all). */
static void since_rl_drop(uintptr_t addr)
{
    int n = nsince_rl;
    if (n && (!addr || since_rl[n - 1].addr == addr)) { /* the newest: the common one */
        nsince_rl = addr ? n - 1 : 0;
        return;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (since_rl[i].addr != addr)
            since_rl[k++] = since_rl[i];
    nsince_rl = k;
}

/* The list is full: drop the needs of locks destroyed since, else move
 * them all into the graph, as needs_make_room does.  Takes graph_lock. */
static int rl_make_room(struct uld_thread *t, struct uld_end_needs *en)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    int k = 0;
    for (int i = 0; i < RL_MAX; i++) {
        const struct rl_need *x = &en->rl[i];
        if (x->addr && k++ != i)
            rl_write(&en->rl[k - 1], x->addr, x->tag_word, x->tag, x->ip, x->stack);
    }
    if (k == RL_MAX) {
        if (own_end_live())
            rl_record(t, own_end, en, own_end->node.in != NULL, 0);
        k = 0;
    }
    rl_set_count(t, en, k);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return k;
}

/* The stack of this thread's acquisitions of the class in `tag` at ip, or
 * 0 if it has none yet (the slow path captures it). */
static uint32_t rl_stack(struct uld_end_needs *en, uint64_t tag, uintptr_t ip)
{
    uint32_t tag_class = (uint32_t)(tag >> 32);
    if (rl_site.tag_class == tag_class && rl_site.ip == ip)
        return rl_site.stack;
    const struct uld_class *c = uld_lazy_class(tag);
    if (!c)
        return 0;
    const struct need_stack *s = need_stack_slot(en, c, ip);
    if (s->cls != c || s->ip != ip || !s->stack)
        return 0;
    rl_site = (struct rl_site){tag_class, s->stack, ip};
    return s->stack;
}

/* The thread-end need, in en's list.  0: the slow path notes it (no stack
 * for its site yet, a join holding locks waiting already). */
static int rl_note(struct uld_thread *t, struct uld_end_needs *en, uintptr_t addr,
                   uint64_t *tag_word, uint64_t tag, uintptr_t ip)
{
    if (atomic_load_explicit(&en->waited, memory_order_relaxed))
        return 0;
    int n = atomic_load_explicit(&en->rl_n, memory_order_relaxed);
    if (n && en->rl[n - 1].addr == addr && en->rl[n - 1].tag == tag)
        return 1; /* this lifetime, taken again */
    uint32_t stack = rl_stack(en, tag, ip);
    if (!stack)
        return 0;
    if (n && en->rl[n - 1].addr == addr) /* an earlier lifetime's: replaced */
        n--;
    else if (n == RL_MAX)
        n = rl_make_room(t, en);
    rl_write(&en->rl[n], addr, tag_word, tag, ip, stack);
    atomic_store_explicit(&en->rl_n, n + 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst); /* see struct uld_end_needs */
    return !atomic_load_explicit(&en->waited, memory_order_relaxed);
}

/*
 * A recordless acquisition's needs: its address and pending tag, noted
 * lock-free once its (class, site) has a stack.  0: the slow path notes
 * them (that site's first acquisition, a full list, a join holding locks
 * waiting already).
 */
int uld_wait_note_recordless(struct uld_thread *t, uintptr_t addr, uint64_t *tag_word,
                             uint64_t tag, uintptr_t ip)
{
    struct uld_end_needs *en = own_needs;
    /* an end nothing waits for (the main thread's) needs nothing */
    int ok = since_rl_note(addr, tag_word, tag, ip) && (!en || rl_note(t, en, addr, tag_word, tag, ip));
    rl_count_update(t);
    return ok;
}

/* The lock at addr is gone (destroyed, or recorded as a need of its own). */
void uld_wait_recordless_drop(struct uld_thread *t, uintptr_t addr)
{
    struct uld_end_needs *en = own_needs;
    since_rl_drop(addr);
    int n = en ? atomic_load_explicit(&en->rl_n, memory_order_relaxed) : 0;
    if (n && en->rl[n - 1].addr == addr) /* the newest: the common one */
        n--;
    else
        for (int i = 0; i < n; i++)
            if (en->rl[i].addr == addr)
                rl_write(&en->rl[i], 0, NULL, 0, 0, 0);
    while (n > 0 && !en->rl[n - 1].addr)
        n--;
    if (en)
        atomic_store_explicit(&en->rl_n, n, memory_order_release);
    rl_count_update(t);
}

/* The thread ends: what it needed stays with its end until the join. */
void uld_wait_thread_ends(struct uld_thread *t)
{
    struct uld_end_needs *en = own_needs;
    if (!en)
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    if (own_end_live()) {
        needs_record(t, own_end, en, own_end->node.in != NULL, 0);
        if (own_end->wait)
            own_end->wait->end = NULL;
    }
    own_needs = NULL;
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    uld_free(en->wide, NEED_STACKS_WIDE * sizeof(*en->wide));
    uld_free(en, sizeof(*en));
    errno = saved;
}

/* Let the next acquisition of lock `id` be noted again; returns its bit
 * for set_aside_taken. */
static uint64_t forget_taken(uint32_t id)
{
    if (needs_seen[id % NEEDS_FILTER] == id)
        needs_seen[id % NEEDS_FILTER] = 0;
    return 1ull << (id % 64);
}

/* Forget the needs noted in en->v[from..n); their bits, as forget_taken's. */
static uint64_t forget_needs(const struct uld_end_needs *en, int from, int n)
{
    uint64_t bits = 0;
    for (int i = from; i < n; i++)
        bits |= forget_taken(en->v[i].nd.id);
    return bits;
}

/* The fast path skips the notes, so the memo entries of the forgotten locks
 * (bits: forget_taken's, a superset) are set aside: their next hit comes
 * through the slow path, which notes it and takes the entry back.  Only
 * entries of blocking acquisitions (fast_noted): a trylock notes nothing. */
static void set_aside_taken(struct uld_thread *t, uint64_t bits)
{
    _Static_assert(ULD_FAST_SLOTS == 64, "fast_noted has a bit per memo slot");
    for (uint64_t m = bits ? t->fast_noted : 0; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        if (bits >> (t->fast[i].lock_id % 64) & 1) {
            uld_fast_set_aside(t, &t->fast[i]);
            t->fast_noted &= ~(1ull << i);
        }
    }
}

/*
 * A wake-up made holding L announces, under L, that this thread is past
 * what it did so far (pigz's yarn: a finishing thread takes the threads
 * lock, marks itself done and signals; the joiner waits for that signal
 * on the same lock and joins holding it).  A joiner that learnt so is not
 * waiting for anything the thread acquired before: L, and every lock it
 * took and let go before (Knot's dt_join: the worker's idle-loop
 * notify_mx, released before its final report under report_mx).  Those
 * acquisitions stop counting; a later acquisition of any lock is recorded
 * again (its memo entries set aside).  Lock-free unless the needs are in
 * the graph already (a join made holding locks, a full list moved there):
 * the noted ones are forgotten by moving the list's base; each forgotten
 * lock's next acquisition takes its memo entry back (fastpath.h) to be
 * noted again.  Python drops its GIL this way at every switch, a thread
 * pool's worker at every notify.
 */
void uld_wait_announced(struct uld_thread *t)
{
    struct uld_lock *w = own_end;
    struct uld_end_needs *en = own_needs;
    if (!w || t->depth == 0)
        return;
    int n = en ? atomic_load_explicit(&en->n, memory_order_relaxed) : 0;
    int base = en ? atomic_load_explicit(&en->base, memory_order_relaxed) : 0;
    if (!w->node.out && n == base && !t->recordless_needs)
        return; /* nothing noted since the last one */
    uint64_t bits = 0;
    if (en && !w->node.out && !atomic_load_explicit(&en->waited, memory_order_relaxed)) {
        bits = forget_needs(en, base, n);
        atomic_store_explicit(&en->base, n, memory_order_release);
        rl_set_count(t, en, 0);
        atomic_thread_fence(memory_order_seq_cst); /* see struct uld_end_needs */
        if (!atomic_load_explicit(&en->waited, memory_order_relaxed)) {
            set_aside_taken(t, bits);
            return;
        }
        /* a join holding locks came meanwhile: it may have recorded them */
    }
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    if (w->id == own_end_id) {
        struct uld_edge *e = w->node.out;
        while (e) {
            struct uld_edge *next = e->out_next;
            bits |= forget_taken(e->to_lock_id);
            uld_graph_remove_edge(&uld_lock_graph, e);
            e = next;
        }
    }
    if (en) {
        bits |= forget_needs(en, atomic_load_explicit(&en->base, memory_order_relaxed),
                             atomic_load_explicit(&en->n, memory_order_relaxed));
        atomic_store_explicit(&en->base, 0, memory_order_relaxed);
        atomic_store_explicit(&en->n, 0, memory_order_release);
        rl_set_count(t, en, 0);
    }
    uld_mutex_unlock(&uld_graph_lock);
    set_aside_taken(t, bits);
    errno = saved;
}

/* A join holding locks: the thread's noted needs become edges first, so
 * the search from the join sees them, and the thread records later ones
 * itself.  graph_lock held. */
void uld_wait_join_holding(struct uld_thread *t, struct uld_lock *w, uintptr_t ip)
{
    struct uld_end_needs *en = w->wait ? w->wait->end : NULL;
    if (!en)
        return;
    atomic_store(&en->waited, 1);
    atomic_thread_fence(memory_order_seq_cst); /* see struct uld_end_needs */
    needs_record(t, w, en, 0, ip);
}

/* ---- who woke a wait object ----------------------------------------------- */

void uld_wait_note_new_waker(struct uld_waitobj *wo, uint32_t serial)
{
    for (int i = 0; i < (int)ULD_ARRAY_SIZE(wo->wakers); i++) {
        uint32_t cur = atomic_load_explicit(&wo->wakers[i], memory_order_relaxed);
        if (cur == serial)
            return;
        if (cur == 0) {
            uint32_t expected = 0;
            if (atomic_compare_exchange_strong(&wo->wakers[i], &expected, serial) ||
                expected == serial)
                return;
        }
    }
}

/* ---- barriers ----------------------------------------------------------- */

static struct barrier_part *part_of(struct uld_barrier *b, uint32_t serial)
{
    for (int i = 0; i < BAR_PARTS; i++)
        if (b->part[i].serial == serial)
            return &b->part[i];
    struct barrier_part *p = &b->part[b->next];
    b->next = (b->next + 1) % BAR_PARTS;
    memset(p, 0, sizeof(*p));
    p->serial = serial;
    return p;
}

static int find_needed(const struct uld_needed *v, int n, uint32_t id)
{
    for (int i = 0; i < n; i++)
        if (v[i].id == id && needed_live(&v[i]))
            return i;
    return -1;
}

/* waiter arrived holding h; other needed it to arrive (taken at need->ip). */
static void report_barrier(struct uld_thread *t, struct uld_lock *b, const struct barrier_part *waiter,
                           const struct uld_needed *h, const struct barrier_part *other,
                           const struct uld_needed *need, uintptr_t ip)
{
    uint64_t key = mix64(mix64(mix64(ULD_R_WAIT_FOR, b->cls->node.id), h->lock->cls->node.id),
                         ULD_TYPE_BARRIER);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(ULD_R_WAIT_FOR);
    if (!r)
        return;
    uld_report_fill_thread(r, t, ip);
    int li = uld_report_add_lock(r, h->lock, h->subclass);
    int bi = uld_report_add_lock(r, b, 0);
    r->target = bi;
    r->target_mode = ULD_MODE_WAIT;
    r->stack_id = t->serial == waiter->serial ? waiter->stack : other->stack;
    /* steps[0] is the one happening now: the arrival of thread t */
    const struct barrier_part *order[2] = {waiter, other};
    if (t->serial == other->serial) {
        order[0] = other;
        order[1] = waiter;
    }
    for (int k = 0; k < 2; k++) {
        const struct barrier_part *p = order[k];
        int is_waiter = p == waiter;
        r->steps[r->nsteps++] = (struct uld_rstep){
            .from = is_waiter ? li : bi, .to = is_waiter ? bi : li,
            .from_mode = is_waiter ? h->mode : ULD_MODE_WAKE,
            .to_mode = is_waiter ? ULD_MODE_WAIT : need->mode,
            .stack_id = p->stack, .from_ip = is_waiter ? h->ip : need->ip,
            .tid = p->tid, .serial = p->serial, .types = ULD_DEP_EN};
    }
    uld_snprintf(r->detail, sizeof(r->detail),
                 "T%u waits at the barrier holding a lock that T%u needed to reach it",
                 waiter->serial, other->serial);
    for (int i = 0; i < waiter->nheld && r->nheld < ULD_R_MAX_HELD; i++) {
        int idx = uld_report_add_lock(r, waiter->held[i].lock, waiter->held[i].subclass);
        if (idx >= 0)
            r->held[r->nheld++] = (struct uld_rheld){idx, waiter->held[i].mode,
                                                     waiter->held[i].ip, waiter->serial};
    }
    uld_report_submit(r, key);
}

/* Does p wait holding a lock that q needed (or q one that p needed)? */
static void barrier_check_pair(struct uld_thread *t, struct uld_lock *b, const struct barrier_part *p,
                               const struct barrier_part *q, uintptr_t ip)
{
    for (int i = 0; i < p->nheld; i++) {
        int j = needed_live(&p->held[i]) ? find_needed(q->needs, q->nneeds, p->held[i].id) : -1;
        if (j >= 0) {
            report_barrier(t, b, p, &p->held[i], q, &q->needs[j], ip);
            return;
        }
    }
}

static void barrier_arrive(struct uld_thread *t, struct uld_lock *b, uintptr_t ip)
{
    struct uld_waitobj *wo = b->wait;
    if (!wo)
        return;
    if (!wo->barrier && !(wo->barrier = uld_alloc(sizeof(*wo->barrier))))
        return;
    struct barrier_part *me = part_of(wo->barrier, t->serial);
    me->tid = t->tid;
    me->ip = ip;
    me->nheld = me->nneeds = 0;
    for (int i = 0; i < t->depth && me->nheld < SINCE_MAX; i++) {
        const struct uld_held *h = &t->held[i];
        if ((h->mode & ULD_MODE_NOCHECK) || !h->lock || h->lock->id != h->lock_id)
            continue;
        struct uld_needed n = {h->lock, h->lock_id, h->subclass, h->mode, h->ip};
        me->held[me->nheld++] = n;
        me->needs[me->nneeds++] = n;
    }
    for (int i = 0; i < nsince && me->nneeds < 2 * SINCE_MAX; i++)
        if (find_needed(me->needs, me->nneeds, since[i].id) < 0 && needed_live(&since[i]))
            me->needs[me->nneeds++] = since[i];
    for (int i = 0; i < nsince_rl && me->nneeds < 2 * SINCE_MAX; i++) {
        const struct rl_taken *x = &since_rl[i];
        struct uld_lock *l = uld_lazy_record_at(x->addr, x->tag_word, x->tag);
        if (l && find_needed(me->needs, me->nneeds, l->id) < 0)
            me->needs[me->nneeds++] = (struct uld_needed){l, l->id, 0, 0, x->ip};
    }
    me->stack = uld_stack_capture();
    uld_wait_note_waker(b, t->serial);
    for (int i = 0; i < BAR_PARTS; i++) {
        struct barrier_part *q = &wo->barrier->part[i];
        if (!q->serial || q == me)
            continue;
        barrier_check_pair(t, b, me, q, ip);
        barrier_check_pair(t, b, q, me, ip);
    }
}

void uld_wait_barrier_arrive(struct uld_thread *t, const void *obj, uintptr_t ip)
{
    struct uld_lock *b = uld_lock_lookup((uintptr_t)obj);
    if (!b)
        b = uld_lock_create((uintptr_t)obj, (struct uld_lockdesc){.type = ULD_TYPE_BARRIER},
                            ULD_SITE_FIRST_USE, ip, &barrier_class_key);
    if (b && b->type == ULD_TYPE_BARRIER)
        barrier_arrive(t, b, ip);
}

void uld_wait_barrier_passed(struct uld_thread *t)
{
    /* a new round: what it takes to arrive next time starts now, and the
     * memo is set aside so each lock's next acquisition is seen again */
    nsince = 0;
    since_rl_drop(0);
    rl_count_update(t);
    for (int i = 0; i < ULD_FAST_SLOTS; i++)
        uld_fast_set_aside(t, &t->fast[i]);
}

/* ---- timeouts that broke a deadlock ------------------------------------- */

#define TO_MAX_THREADS 512
static struct uld_thread_snap to_snaps[TO_MAX_THREADS]; /* under graph_lock */

static struct uld_thread_snap *snap_holding(int n, uintptr_t addr, const struct uld_thread_snap *not)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; &to_snaps[i] != not && k < to_snaps[i].nheld; k++)
            if (to_snaps[i].held[k] == addr)
                return &to_snaps[i];
    return NULL;
}

static struct uld_thread_snap *snap_of_serial(int n, uint32_t serial)
{
    for (int i = 0; i < n; i++)
        if (to_snaps[i].serial == serial)
            return &to_snaps[i];
    return NULL;
}

/* What s is blocked on: what it said, or a fast-path acquisition (its newest
 * entry, pushed before the real call) of a lock another thread holds.  A
 * waiter whose object was woken since its wait began may just not have run
 * yet: it waits for nothing then, or, on a condvar, for its mutex back. */
static uintptr_t snap_blocked_on(int n, struct uld_thread_snap *s)
{
    if (s->blocked_on) {
        struct uld_lock *w = uld_lock_lookup(s->blocked_on);
        if (!w || !uld_is_wait_type(w->type) || uld_wait_seq(w) == s->blocked_seq)
            return s->blocked_on;
        uintptr_t m = w->type == ULD_TYPE_COND ? atomic_load(&w->wait->bound_mutex) : 0;
        return m && snap_holding(n, m, s) ? m : 0;
    }
    if (s->top && !(s->top_mode & ULD_MODE_READ)) {
        for (int i = 0; i < n; i++) {
            if (&to_snaps[i] == s)
                continue;
            for (int k = 0; k < to_snaps[i].nheld; k++)
                if (to_snaps[i].held[k] == s->top)
                    return s->top;
        }
    }
    return 0;
}

/* Can only thread `p` end q's block on `addr`? */
static int only_p_ends(int n, const struct uld_thread_snap *p, uintptr_t addr)
{
    struct uld_lock *w = uld_lock_lookup(addr);
    if (!w)
        return 0;
    if (!uld_is_wait_type(w->type))
        return snap_holding(n, addr, NULL) == p; /* a lock p holds */
    if (!w->wait || w->type == ULD_TYPE_BARRIER)
        return 0;
    uint32_t first = atomic_load(&w->wait->wakers[0]);
    for (int i = 1; i < (int)ULD_ARRAY_SIZE(w->wait->wakers); i++) {
        uint32_t s = atomic_load(&w->wait->wakers[i]);
        if (s && s != first)
            return 0;
    }
    return first == p->serial; /* only p ever woke it (or it is p's end) */
}

static void report_timeout(struct uld_thread *t, struct uld_lock *x, struct uld_thread_snap *q,
                           struct uld_lock *w, uintptr_t ip)
{
    uint64_t key = mix64(mix64(ULD_R_TIMEOUT, x->cls->node.id), w->cls->node.id);
    if (uld_report_seen(key))
        return;
    struct uld_report *r = uld_report_new(ULD_R_TIMEOUT);
    if (!r)
        return;
    uld_report_fill_thread(r, t, ip);
    int xi = uld_report_add_lock(r, x, 0), wi = uld_report_add_lock(r, w, 0);
    r->target = xi;
    r->stack_id = uld_stack_capture();
    r->steps[0] = (struct uld_rstep){.from = wi, .to = xi, .stack_id = r->stack_id,
                                     .from_ip = ip, .tid = t->tid, .serial = t->serial};
    r->steps[1] = (struct uld_rstep){.from = xi, .to = wi, .from_ip = q->blocked_ip,
                                     .tid = q->tid, .serial = q->serial};
    r->nsteps = 2;
    uld_snprintf(r->detail, sizeof(r->detail),
                 "T%u's wait for %s expired while T%u, which it waited for, was blocked on "
                 "something only T%u provides",
                 t->serial, uld_lock_type_name(x->type), q->serial, t->serial);
    for (int i = 0; i < t->depth && r->nheld < ULD_R_MAX_HELD; i++) {
        const struct uld_held *h = &t->held[i];
        int known = r->nlocks;
        int idx = h->lock && h->lock->id == h->lock_id ? uld_report_add_lock(r, h->lock, 0) : -1;
        if (idx >= known)
            r->locks[idx].context = 1;
        if (idx >= 0)
            r->held[r->nheld++] = (struct uld_rheld){idx, h->mode, h->ip, t->serial};
    }
    uld_report_submit(r, key);
}

/*
 * t's timed lock or wait on x expired.  Who was it waiting for?  x's holder
 * (a lock), the thread (its end), or the threads that woke x before (a
 * condvar, a semaphore).  If one of them is blocked right now on something
 * only t can provide (a lock t holds, a wait object only t ever woke, t's
 * end), the two would have hung forever: the timeout broke a deadlock.
 */
void uld_check_timeout(struct uld_thread *t, const void *object, uintptr_t ip)
{
    uintptr_t obj = (uintptr_t)object;
    struct uld_lock *x = uld_lock_lookup(obj);
    if (!x || x->type == ULD_TYPE_BARRIER)
        return;
    int n = uld_threads_snapshot(to_snaps, TO_MAX_THREADS);
    struct uld_thread_snap *p = snap_of_serial(n, t->serial);
    if (!p)
        return;
    struct uld_thread_snap *cand[ULD_ARRAY_SIZE(x->wait->wakers) + 1];
    int nc = 0;
    if (!uld_is_wait_type(x->type)) {
        cand[nc] = snap_holding(n, obj, p);
        nc += cand[nc] != NULL;
    } else if (x->wait) {
        for (int i = 0; i < (int)ULD_ARRAY_SIZE(x->wait->wakers); i++) {
            uint32_t s = atomic_load(&x->wait->wakers[i]);
            if (s && s != t->serial && (cand[nc] = snap_of_serial(n, s)))
                nc++;
        }
    }
    for (int i = 0; i < nc; i++) {
        struct uld_thread_snap *q = cand[i];
        uintptr_t on = snap_blocked_on(n, q);
        struct uld_lock *w = on ? uld_lock_lookup(on) : NULL;
        if (w && only_p_ends(n, p, on)) {
            q->blocked_on = on;
            report_timeout(t, x, q, w, ip);
            return;
        }
    }
}
