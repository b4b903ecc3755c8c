/*
 * acquire.c - entry points for taking and releasing a lock: the fast path
 * (chain-cache hit: no global lock, no allocation), lock identity on first
 * use, and dispatch to the checks (rules/check.c) on a miss.
 */
#include "entry.h"
#include "fastpath.h"
#include "base/tablefull.h"

#include "model/chain.h"
#include "base/config.h"
#include "model/forkset.h"
#include "base/output.h"
#include "report/report.h"
#include "model/stack.h"
#include "model/stackmemo.h"
#include "model/tomb.h"
#include "rules/wait.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>


/* What uld_acquire_end() has to do. */
enum { ACT_NONE, ACT_PUSH, ACT_NEST, ACT_OVERFLOW, ACT_PUSH_FRESH };

/* ---- acquire / release --------------------------------------------- */

/* Look up, else create under graph_lock (first use without an init call). */
static int tag_matches(const struct uld_lock *l, const uint64_t *tag)
{
    return __atomic_load_n(tag, __ATOMIC_RELAXED) == uld_lock_tag(l);
}

void uld_tag_write(struct uld_lock *l, uint64_t *tag)
{
    __atomic_store_n(tag, uld_lock_tag(l), __ATOMIC_RELAXED);
    l->tagged = 1;
}

/*
 * The lock object at addr, checked against its tag: a tag other than the
 * record's means the object was constructed again, a new lifetime.  A
 * record made by an annotation (which cannot write tags) adopts the
 * object's tag, one made from a pending tag (for another thread's
 * recordless entry, recordless.c) only that tag.  graph_lock held.
 */
static struct uld_lock *lock_identity(struct uld_lock *l, uintptr_t addr,
                                      struct uld_lockdesc d, uintptr_t ip)
{
    if (l && d.tag && !tag_matches(l, d.tag) &&
        (l->tagged || (l->from_pending &&
                       !uld_lazy_is_from(l, __atomic_load_n(d.tag, __ATOMIC_RELAXED))))) {
        uld_lock_forget(l);
        l = NULL;
    }
    if (!l)
        l = uld_lazy_record(addr, d);
    if (!l)
        l = uld_lock_first_use(addr, d, ip);
    if (l && d.tag && !tag_matches(l, d.tag))
        uld_tag_write(l, d.tag);
    return l;
}

/* The record at addr by lock-free lookup, or NULL; *live: it is this
 * object's lifetime (its tag matches). */
static inline __attribute__((always_inline)) struct uld_lock *
lock_peek(uintptr_t addr, struct uld_lockdesc d, int *live)
{
    uint64_t tag = d.tag ? __atomic_load_n(d.tag, __ATOMIC_RELAXED) : 0;
    *live = 0;
    /* a lazily initialised lock's first use: no record to look up, unless
     * an annotation made one (its granule bit says) */
    if (uld_tag_is_pending(tag) && !uld_lockmap_may_have_record(addr))
        return NULL;
    struct uld_lock *l = uld_lock_lookup(addr);
    *live = likely(l != NULL) && (!d.tag || likely(tag == uld_lock_tag(l)));
    return l;
}

/* The record when lock_peek found none live: made or confirmed under
 * graph_lock (l: what it found). */
static struct uld_lock *lock_settle(struct uld_lock *l, uintptr_t addr, struct uld_lockdesc d,
                                    uintptr_t ip)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    l = lock_identity(uld_lock_recheck(l, addr), addr, d, ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return l;
}

static struct uld_lock *lock_get(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    int live;
    struct uld_lock *l = lock_peek(addr, d, &live);
    return live ? l : lock_settle(l, addr, d, ip);
}

/*
 * A lock call on a mutex, rwlock or spinlock that pthread_*_destroy ended and
 * nothing built again (tomb.c): reported once, and the call is left to the
 * program, untracked.  Cheap unless something was buried near addr or the
 * object carries glibc's destroyed mark.
 */
static __attribute__((noinline)) int destroyed_use_check(struct uld_thread *t, uintptr_t addr,
                                                          struct uld_lockdesc d, int op,
                                                          uintptr_t ip)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_dead_use use;
    int dead = uld_tomb_use(addr, d, ip, &use);
    if (use.rec)
        uld_check_use_after_destroy(t, use.rec, use.id, addr, use.destroy_ip, op, ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return dead;
}

/* The cheap part inline: most calls end here (a first use or a destroy
 * pays no call and no register saves for the check under graph_lock). */
static inline __attribute__((always_inline)) int
destroyed_use(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d, int looked_up,
              struct uld_lock *l, int op, uintptr_t ip)
{
    if (d.type > ULD_TYPE_SPIN)
        return 0;
    if (!(d.flags & ULD_LF_DESTROYED)) {
        if (d.tag && uld_tag_is_pending(__atomic_load_n(d.tag, __ATOMIC_RELAXED)))
            return 0; /* initialised since anything was destroyed here */
        if (!looked_up)
            l = uld_lock_lookup(addr);
        if (l && (!d.tag || tag_matches(l, d.tag)))
            return 0; /* a live lock */
        if (!uld_lockmap_range_marked(addr, 1))
            return 0; /* nothing was buried near addr */
    }
    return destroyed_use_check(t, addr, d, op, ip);
}

int uld_destroyed_lock_use(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d, int op,
                           uintptr_t ip)
{
    return destroyed_use(t, addr, d, 0, NULL, op, ip);
}

int uld_destroyed_lock_use_found(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                                 struct uld_lock *found, int op, uintptr_t ip)
{
    return destroyed_use(t, addr, d, 1, found, op, ip);
}

/* An annotation named the lock before its first acquisition told its type. */
static void lock_retype(struct uld_lock *l, struct uld_lockdesc d)
{
    uld_mutex_lock(&uld_graph_lock);
    l->type = d.type;
    l->flags = d.flags;
    if (l->cls->type == ULD_TYPE_CUSTOM) /* the class was named before it was used */
        l->cls->type = d.type;
    if (uld_is_wait_type(d.type) && !l->wait)
        l->wait = uld_alloc(sizeof(*l->wait));
    uld_mutex_unlock(&uld_graph_lock);
}

/* An object's record as found (or made), its type as the call says. */
static struct uld_lock *object_typed(struct uld_lock *l, struct uld_lockdesc d)
{
    if (l && unlikely(l->type != d.type || l->flags != d.flags))
        lock_retype(l, d);
    return l;
}

/* The record for a lock or wait object of the given type, created if new. */
struct uld_lock *uld_object_get(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    return object_typed(lock_get(addr, d, ip), d);
}

/* Node id for (lock, subclass); subclass nodes are created on first use. */
static uint32_t node_id_of(struct uld_lock *l, unsigned subclass)
{
    if (subclass == 0)
        return l->id;
    if (subclass < ULD_NUM_SUBCLASSES && l->sub && l->sub[subclass])
        return l->sub[subclass]->node.id;
    uld_mutex_lock(&uld_graph_lock);
    uint32_t id = uld_lock_node(l, subclass)->id;
    uld_mutex_unlock(&uld_graph_lock);
    return id;
}

struct validate_args {
    struct uld_thread *t;
    struct uld_lock *l;
    unsigned subclass, mode;
    uintptr_t ip;
    uint64_t key;
    int born_under; /* >= 0: a fresh lock's first acquisition (not cached) */
};

static void validate_on_stack(void *arg)
{
    struct validate_args *v = arg;
    uld_mutex_lock(&uld_graph_lock);
    if (v->born_under >= 0) {
        uld_check_first_acquire(v->t, v->l, v->subclass, v->mode, v->ip, v->born_under);
    } else if (!uld_chain_contains(v->key)) {
        uld_check_acquire(v->t, v->l, v->subclass, v->mode, v->ip);
        uld_chain_insert(v->key);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
}

/* On a big stack: the program's may be small (see bigstack.c). */
static void validate_as(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                        unsigned mode, uintptr_t ip, uint64_t key, int born_under)
{
    int saved = errno;
    uint64_t start = uld_now_ns();
    struct validate_args v = {t, l, subclass, mode, ip, key, born_under};
    uld_stack_anchor_set(t, (uintptr_t)__builtin_frame_address(0));
    uld_bigstack_run(validate_on_stack, &v);
    uld_stack_anchor_clear(t);
    t->slow_ns += uld_now_ns() - start;
    errno = saved;
}

static void validate(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                     unsigned mode, uintptr_t ip, uint64_t key)
{
    validate_as(t, l, subclass, mode, ip, key, -1);
}

/*
 * Fresh locks.  A lock initialised by this thread that no other thread has
 * touched since (acquired, tried, waited on) cannot be held by anyone else:
 * its first acquisition cannot block.  The dependencies into it from the
 * locks held since its init (the initialiser's held prefix then, still
 * held: GDAL's create-and-lock under a global creation mutex) are not
 * recorded; those from locks taken after the init are, as are all of its
 * later acquisitions.  Locks with no init call (static, zeroed, std::mutex)
 * may be shared already and are never fresh.  l->fresh goes YES ->
 * CLAIMED (the first acquisition, between the check and the real call) ->
 * DEAD; another thread's touch makes it DEAD at once, so a touch during the
 * claim makes the claim fail at its end, and the acquisition is then
 * validated in full after the fact.  Other threads only ever write `fresh`.
 */
void uld_fresh_mark(struct uld_thread *t, struct uld_lock *l, struct uld_lockdesc d)
{
    if ((d.type != ULD_TYPE_MUTEX && d.type != ULD_TYPE_RWLOCK && d.type != ULD_TYPE_SPIN) ||
        t->depth == 0 || t->depth > UINT16_MAX)
        return; /* born with nothing held: nothing to relax */
    l->fresh_owner = t->serial;
    l->birth_depth = (uint16_t)t->depth;
    l->birth_key = (uint32_t)uld_held_top_key(t);
    uint8_t none = ULD_FRESH_NONE;
    atomic_compare_exchange_strong(&l->fresh, &none, ULD_FRESH_YES);
}

/* Is the initialiser's held prefix at init still held, as it was? */
static int born_under_held(const struct uld_thread *t, const struct uld_lock *l)
{
    int d = l->birth_depth;
    return d > 0 && d <= t->depth && (uint32_t)t->held[d - 1].chain_key == l->birth_key;
}

/* Before an acquisition: returns how many held entries the lock was born
 * under if this is a fresh first acquisition (claimed), else -1. */
static int fresh_claim(struct uld_thread *t, struct uld_lock *l, unsigned mode)
{
    uint8_t v = atomic_load_explicit(&l->fresh, memory_order_acquire);
    if (likely(v == ULD_FRESH_DEAD || v == ULD_FRESH_NONE))
        return -1;
    if (v != ULD_FRESH_YES || l->fresh_owner != t->serial || (mode & ULD_MODE_TRY) ||
        !born_under_held(t, l)) {
        atomic_store(&l->fresh, ULD_FRESH_DEAD); /* touched, or not the case we relax */
        return -1;
    }
    if (!atomic_compare_exchange_strong(&l->fresh, &v, ULD_FRESH_CLAIMED))
        return -1;
    return l->birth_depth;
}

/* After the real call: was the lock untouched by others all along? */
static int fresh_confirm(struct uld_acq *a)
{
    uint8_t claimed = ULD_FRESH_CLAIMED;
    return atomic_compare_exchange_strong(&a->lock->fresh, &claimed, ULD_FRESH_DEAD);
}

/* May the owner take this lock again in `mode` without blocking? */
static int reentry_allowed(const struct uld_lock *l, const struct uld_held *h, unsigned mode)
{
    if (l->flags & ULD_LF_RECURSIVE)
        return 1;
    return (mode & ULD_MODE_READ) && (h->mode & ULD_MODE_READ) && uld_read_is_recursive(l);
}

/* A thread holds more locks than its held-lock stack keeps: the deeper
 * ones are not checked.  A limit-reached report, like every table bound. */
static void report_held_limit(void)
{
    static _Atomic int reported;
    if (atomic_load_explicit(&reported, memory_order_relaxed) || atomic_exchange(&reported, 1))
        return;
    uld_mutex_lock(&uld_graph_lock);
    uld_table_full("held-lock", ULD_MAX_HELD, NULL);
    uld_mutex_unlock(&uld_graph_lock);
}

/* t's memo entry set aside (thread.h) for this very acquisition, tested as
 * the fast path tests a hit, or NULL; its slot in *slot. */
static inline __attribute__((always_inline)) struct uld_fast *
entry_aside(struct uld_thread *t, uintptr_t addr, const uint64_t *tag, unsigned mode,
            unsigned *slot)
{
    uint64_t pk = uld_fast_key(uld_held_top_key(t), t->sigctx, mode);
    *slot = uld_fast_slot(addr, pk);
    struct uld_fast *f = &t->fast[*slot];
    if (f->addr != ~addr || f->prev_key != pk || f->lock->id != f->lock_id ||
        (f->tag && (!tag || __atomic_load_n(tag, __ATOMIC_RELAXED) != f->tag)))
        return NULL;
    return f;
}

/* ... taken back: the fast path hits it again. */
static inline void entry_back(struct uld_thread *t, struct uld_fast *f, unsigned slot,
                              uintptr_t addr, unsigned mode)
{
    f->addr = addr;
    if (!(mode & ULD_MODE_TRY))
        t->fast_noted |= 1ull << slot;
}

/*
 * A memo entry set aside for this very acquisition: validated as the fast
 * path's would be, it is pushed as a hit, with the notes a hit skips (the
 * caller's), and taken back.  No lookup, no chain-cache probe.  The
 * wrappers' uld_fast_take_back takes most entries back before this; here
 * come the rest (one in a signal handler, one through the annotation API
 * or pthread_once).  0: the full path.
 */
static int take_back(struct uld_thread *t, struct uld_acq *a, uintptr_t addr,
                     struct uld_lockdesc d, unsigned mode)
{
    unsigned slot;
    struct uld_fast *f = entry_aside(t, addr, d.tag, mode, &slot);
    if (!f)
        return 0;
    a->lock = f->lock;
    a->lock_id = f->lock_id;
    a->node_id = f->node_id;
    a->subclass = 0;
    a->mode = (uint8_t)mode;
    a->prev_key = uld_held_top_key(t);
    a->key = f->key;
    a->action = ACT_PUSH;
    a->try_held = (mode & ULD_MODE_TRY) && !t->in_signal && uld_held_find(t, addr) >= 0;
    entry_back(t, f, slot, addr, mode);
    t->fast_hits++;
    return 1;
}

/*
 * The fast path met the memo entry for this acquisition set aside: pushed
 * as its hit would be, with the notes a hit skips, and taken back, inside
 * the validator (uld_busy) but with no lookup, no chain-cache probe and no
 * global lock.  After a wake-up made holding a lock (a worker's notify,
 * the GIL's switch) each lock's next acquisition comes here.  The end
 * need is noted before the real call, as the full path does; the barrier's
 * "taken since" once the lock is taken: now for one that cannot fail, else
 * by the caller after the call (ULD_FAST_NOTE_TAKEN: uld_fast_taken).  A
 * trylock notes nothing.  0: the full path (take_back).
 */
int uld_fast_take_back_entry(const void *lock, const uint64_t *tag, unsigned mode,
                             uintptr_t ip)
{
    struct uld_thread *t = uld_fast_self;
    uintptr_t addr = (uintptr_t)lock;
    if (!t || t->in_signal) /* in a handler, a note may capture a stack: the big stack's job */
        return 0;
    uld_enter_from_fast();
    int depth = t->depth, r = 0;
    unsigned slot;
    struct uld_fast *f = depth < ULD_MAX_HELD ? entry_aside(t, addr, tag, mode, &slot) : NULL;
    if (f) {
        entry_back(t, f, slot, addr, mode);
        r = ULD_FAST_PUSHED + f->sure;
        if (!(mode & ULD_MODE_TRY)) {
            uld_wait_note_acquire(t, f->lock, 0, mode, ip);
            if (f->sure)
                uld_wait_note_taken(f->lock, 0, mode, ip);
            else
                r |= ULD_FAST_NOTE_TAKEN;
        }
        uld_fast_push(t, &t->stack[depth], depth, f, addr, ip);
    }
    uld_leave();
    return r;
}

void uld_fast_taken(uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    const struct uld_held *h = uld_fast_newest(t, ip);
    if (h && h->lock->id == h->lock_id)
        uld_wait_note_taken(h->lock, h->subclass, h->mode, ip);
    uld_leave();
}

/*
 * Does a blocking acquisition of l never return an error?  A spinlock's
 * never does, nor a mutex of glibc's normal or adaptive type (no owner
 * check, no count, no robust list, no priority protocol): the fast path's
 * hit then jumps to the real call (ULD_FAST_SURE).
 */
static int acquisition_sure(const struct uld_lock *l, unsigned mode)
{
    if (mode & (ULD_MODE_TRY | ULD_MODE_READ))
        return 0;
    if (l->type == ULD_TYPE_SPIN)
        return 1;
    return l->type == ULD_TYPE_MUTEX &&
           !(l->flags & (ULD_LF_RECURSIVE | ULD_LF_ERRORCHECK | ULD_LF_ROBUST | ULD_LF_PRIO |
                         ULD_LF_DESTROYED));
}

/* The body of an acquisition, for an explicit subclass; uld_busy is set. */
void uld_acquire_prepare(struct uld_thread *t, struct uld_acq *a, uintptr_t addr,
                         struct uld_lockdesc d, unsigned mode, unsigned subclass,
                         uintptr_t ip)
{
    a->thread = t;
    a->addr = addr;
    a->ip = ip;
    a->action = ACT_OVERFLOW;
    a->try_held = 0;
    if (unlikely(t->depth >= ULD_MAX_HELD)) {
        report_held_limit(); /* once per process, in every output */
        return;
    }
    struct uld_lock *l;
    int taken_back = t->fast_aside && subclass == 0 && !t->disabled &&
                     take_back(t, a, addr, d, mode);
    if (taken_back) {
        l = a->lock;
        goto note; /* one call site: the note stays inline */
    }
    int live; /* one lookup for both the use-after-destroy test and the record */
    l = lock_peek(addr, d, &live);
    if (unlikely(destroyed_use(t, addr, d, 1, live ? l : NULL, ULD_DEAD_LOCK, ip))) {
        a->action = ACT_NONE;
        return;
    }
    l = object_typed(live ? l : lock_settle(l, addr, d, ip), d);
    if (unlikely(!l)) /* a table is full: this lock goes unchecked */
        return;
    if (unlikely((l->flags & (ULD_LF_RECURSIVE | ULD_LF_READ_RECURSIVE)) ||
                 (l->type == ULD_TYPE_RWLOCK && (mode & ULD_MODE_READ)))) {
        int i = uld_held_find(t, addr);
        if (i >= 0 && reentry_allowed(l, &t->held[i], mode)) {
            a->action = ACT_NEST;
            return;
        }
    }
    if (unlikely(t->disabled))
        mode |= ULD_MODE_NOCHECK;
    a->lock = l;
    a->lock_id = l->id;
    a->node_id = node_id_of(l, subclass);
    a->subclass = (uint8_t)subclass;
    a->mode = (uint8_t)mode;
    a->prev_key = uld_held_top_key(t);
    a->key = uld_chain_mix(a->prev_key, a->node_id, mode);
    a->action = ACT_PUSH;
    /* a handler that tries a lock its interrupted thread may hold is the
     * right way to avoid that deadlock, not a warning */
    a->try_held = (mode & ULD_MODE_TRY) && !t->in_signal && uld_held_find(t, addr) >= 0;
    if (mode & ULD_MODE_NOCHECK)
        return;
    int born_under = fresh_claim(t, l, mode);
    if (unlikely(born_under >= 0)) { /* validated once, not cached, not memoised */
        a->action = ACT_PUSH_FRESH;
        validate_as(t, l, subclass, mode, ip, a->key, born_under);
        return;
    }
    /* A trylock never waits, so it adds no dependency into the lock; it still
     * matters for signal safety (a handler may interrupt while it is held).
     * With nothing held and no handler installed there is nothing to check:
     * no chain (a new lock's first acquisition takes no global lock). */
    int handlers = atomic_load_explicit(&uld_signal_handlers, memory_order_relaxed);
    if ((!(mode & ULD_MODE_TRY) || handlers) && (t->depth > 0 || handlers)) {
        uint64_t key = a->key ^ t->sigctx; /* chains are checked once per signal context */
        if (likely(uld_chain_contains(key))) {
            t->chain_hits++;
        } else {
            t->chain_misses++;
            validate(t, l, subclass, mode, ip, key);
        }
    }
note:
    if (!(mode & ULD_MODE_TRY)) /* needed before this thread can end */
        uld_wait_note_acquire(t, l, subclass, mode, ip);
    if (subclass == 0 && !taken_back) { /* remember the outcome: next time the fast path pushes it */
        uint64_t pk = uld_fast_key(a->prev_key, t->sigctx, mode);
        unsigned slot = uld_fast_slot(addr, pk);
        struct uld_fast *f = &t->fast[slot];
        if (!(mode & ULD_MODE_TRY))
            t->fast_noted |= 1ull << slot;
        /* tag 0: the object has no tag word (process-shared, robust, lock_tags=0) */
        *f = (struct uld_fast){.addr = addr, .prev_key = pk, .key = a->key, .lock = l,
                               .ids = {l->id, a->node_id, 0, (uint8_t)mode, 0, l->type},
                               .tag = d.tag ? uld_lock_tag(l) : 0,
                               .sure = (uint8_t)acquisition_sure(l, mode)};
    }
}

/* A handler may run on a small sigaltstack (8 KiB is common): a first
 * acquisition there (class key from a stack capture, validation) runs on a
 * big stack; see bigstack.c. */
struct acquire_args {
    struct uld_thread *t;
    struct uld_acq *a;
    uintptr_t addr;
    struct uld_lockdesc d;
    unsigned mode, subclass;
    uintptr_t ip;
};

static void begin_acquire_on_stack(void *arg)
{
    struct acquire_args *x = arg;
    uld_acquire_prepare(x->t, x->a, x->addr, x->d, x->mode, x->subclass, x->ip);
}

int uld_acquire_begin(struct uld_acq *a, const void *lock, struct uld_lockdesc d,
                      unsigned af, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return 0;
    uintptr_t addr = (uintptr_t)lock;
    unsigned mode = ((af & ULD_AF_READ) ? ULD_MODE_READ : 0) |
                    ((af & ULD_AF_TRY) ? ULD_MODE_TRY : 0);
    unsigned subclass = 0;
    if (unlikely(t->nest_addr == addr)) {
        subclass = t->nest_subclass;
        t->nest_addr = 0;
    }
    /* it may block: the watchdog and kill report see it, already while this
     * acquisition is checked (a report can take long); acquire_end ends it */
    if (!(af & ULD_AF_TRY))
        uld_block_publish(t, lock, ip);
    if (unlikely(t->in_signal)) {
        struct acquire_args x = {t, a, addr, d, mode, subclass, ip};
        uld_bigstack_run(begin_acquire_on_stack, &x);
    } else {
        uld_acquire_prepare(t, a, addr, d, mode, subclass, ip);
    }
    uld_leave();
    return 1;
}

static void acquire_took(struct uld_thread *t, struct uld_acq *a);

/* The trylock failed on a lock this thread holds: the blocking call would hang. */
static void trylock_held(struct uld_thread *t, struct uld_acq *a)
{
    uld_busy++;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    uld_check_trylock_held(t, a->lock, a->ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    uld_busy--;
}

void uld_acquire_end(struct uld_acq *a, int acquired)
{
    struct uld_thread *t = a->thread;
    uld_blocked_clear(t); /* see uld_acquire_begin */
    if (unlikely(a->action == ACT_PUSH_FRESH) && a->lock->id == a->lock_id &&
        !fresh_confirm(a)) {
        /* another thread reached the lock meanwhile: it may have blocked */
        uld_busy++;
        validate(t, a->lock, a->subclass, a->mode, a->ip, a->key);
        uld_busy--;
    }
    if (!acquired) {
        if (unlikely(a->try_held) && a->lock && a->lock->id == a->lock_id)
            trylock_held(t, a);
        return;
    }
    uld_busy++;
    acquire_took(t, a);
    uld_busy--;
}

/* The acquisition a was made: the held stack says so. */
static void acquire_took(struct uld_thread *t, struct uld_acq *a)
{
    int i;
    switch (a->action) {
    case ACT_NEST:
        if ((i = uld_held_find(t, a->addr)) >= 0)
            t->held[i].nest++;
        break;
    case ACT_OVERFLOW:
        t->overflow++;
        break;
    case ACT_PUSH:
    case ACT_PUSH_FRESH:
        if (t->depth >= ULD_MAX_HELD) {
            t->overflow++;
            break;
        }
        struct uld_held *h = &t->held[t->depth];
        uint64_t top = uld_held_top_key(t);
        h->chain_key = top == a->prev_key ? a->key : uld_chain_mix(top, a->node_id, a->mode);
        h->addr = a->addr;
        h->lock = a->lock;
        h->lock_id = a->lock_id;
        h->node_id = a->node_id;
        h->ip = a->ip;
        h->nest = 0;
        h->mode = a->mode;
        h->subclass = a->subclass;
        h->type = a->lock->type;
        if (++t->depth > t->max_depth)
            t->max_depth = t->depth;
        if (!(a->mode & (ULD_MODE_TRY | ULD_MODE_NOCHECK)))
            uld_wait_note_taken(a->lock, a->subclass, a->mode, a->ip);
        if (unlikely(t->sem_addr) && t->sem_nacq < (int)ULD_ARRAY_SIZE(t->sem_acq))
            t->sem_acq[t->sem_nacq++] = (struct uld_needed){a->lock, a->lock_id, a->subclass,
                                                             a->mode, a->ip};
        break;
    }
}

/*
 * The rest of an acquisition made without a record (recordless.c), now
 * that the thread enters the validator: everything the slow path does
 * before and after the real call, for the lock held at held[0].
 */
static void deferred_on_stack(void *arg)
{
    struct acquire_args *x = arg;
    uld_acquire_prepare(x->t, x->a, x->addr, x->d, x->mode, x->subclass, x->ip);
    acquire_took(x->t, x->a);
}

void uld_acquire_deferred(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                          uintptr_t ip)
{
    struct uld_acq a;
    struct acquire_args x = {t, &a, addr, d, 0, 0, ip};
    a.lock = NULL;
    if (unlikely(t->in_signal))
        uld_bigstack_run(deferred_on_stack, &x);
    else
        deferred_on_stack(&x);
}

enum uld_owner_hint uld_owner_hint_of(int owner_tid)
{
    if (owner_tid == 0)
        return ULD_OWNER_NONE;
    return owner_tid == uld_gettid() ? ULD_OWNER_SELF : ULD_OWNER_OTHER;
}

int uld_on_release(const void *lock, struct uld_lockdesc d, int owner_tid, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return 0;
    uintptr_t addr = (uintptr_t)lock;
    int i = t->depth - 1;
    if (likely(i >= 0 && t->held[i].addr == addr) || (i = uld_held_find(t, addr)) >= 0) {
        if (t->held[i].nest)
            t->held[i].nest--;
        else if (i == t->depth - 1)
            t->depth--;
        else
            uld_held_remove(t, i);
        uld_leave();
        return 1;
    }
    if (t->overflow) {
        t->overflow--;
        uld_leave();
        return 1;
    }
    if (uld_destroyed_lock_use(t, addr, d, ULD_DEAD_UNLOCK, ip)) {
        uld_leave();
        return 0;
    }
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    uld_check_unlock_misuse(t, addr, d, uld_owner_hint_of(owner_tid), ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    uld_leave();
    return 0;
}
