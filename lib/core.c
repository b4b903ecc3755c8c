/*
 * core.c - entry points: the recursion guard, the fast path (chain-cache
 * hit: no global lock, no allocation), dispatch to the checks in check.c,
 * and process/thread lifecycle.  graph_lock protects the graphs, classes,
 * the lock map's writers and the stack depot.
 */
#include "core.h"

#include "model/chain.h"
#include "base/config.h"
#include "model/forkset.h"
#include "base/output.h"
#include "report/report.h"
#include "model/stack.h"
#include "model/tomb.h"
#include "rules/wait.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

struct uld_mutex uld_graph_lock;
_Atomic int uld_state;
_Atomic int uld_untracked_locks;
__thread struct uld_thread *uld_fast_self __attribute__((tls_model("initial-exec")));
int uld_lock_tags;
struct uld_graph uld_lock_graph = {.name = "lock"};
struct uld_graph uld_class_graph = {.name = "class"};

static pthread_key_t thread_key;

/* What uld_acquire_end() has to do. */
enum { ACT_NONE, ACT_PUSH, ACT_NEST, ACT_OVERFLOW, ACT_PUSH_FRESH };

static void thread_key_destructor(void *arg);

/*
 * The process whose state this memory is.  A vfork child runs in its
 * parent's memory until it execs or calls _exit: getpid() differs there,
 * and what the parent owns (outputs, counters, summary) is left alone.
 */
static pid_t own_pid;

static int in_own_process(void)
{
    return getpid() == own_pid;
}

void uld_init(void)
{
    int expected = ULD_STATE_OFF;
    if (!atomic_compare_exchange_strong(&uld_state, &expected, ULD_STATE_INITIALISING))
        return;
    uld_busy++;
    int saved = errno;
    own_pid = getpid();
    uld_output_init();
    uld_bigstack_init();
    uld_config_parse(getenv("ULOCKDEP_OPTIONS"));
    if (uld_config_skips_program(program_invocation_short_name)) {
        errno = saved; /* a test driver (skip=ctest): it records nothing, its children do */
        uld_busy--;
        atomic_store(&uld_state, ULD_STATE_FAILED);
        return;
    }
    int ok = uld_lockmap_init();
    if (!uld_chain_init((int)uld_config.chain_cache_bits))
        uld_warn("cannot map the chain cache; every acquisition takes the slow path");
    uld_report_open_outputs();
    uld_graph_dump_open();
    uld_lock_tags = (int)uld_config.lock_tags;
    ok = ok && pthread_key_create(&thread_key, thread_key_destructor) == 0;
    errno = saved;
    uld_busy--;
    if (!ok)
        uld_warn("initialisation failed (out of memory?); checking is off");
    atomic_store(&uld_state, ok ? ULD_STATE_READY : ULD_STATE_FAILED);
    if (ok)
        uld_watchdog_start();
}

int uld_self_tid(void)
{
    return uld_gettid();
}

void uld_set_own_text(uintptr_t lo, uintptr_t hi)
{
    uld_stack_set_skip_range(lo, hi);
}

int uld_is_ready(void)
{
    return atomic_load(&uld_state) == ULD_STATE_READY;
}

struct uld_thread *uld_thread_attach(void)
{
    struct uld_thread *t = uld_thread_create();
    if (!t)
        return NULL;
    uld_self = t;
    pthread_setspecific(thread_key, t);
    uld_signal_thread_init(t);
    return t;
}

/* ---- acquire / release --------------------------------------------- */

/* Look up, else create under graph_lock (first use without an init call). */
static int tag_matches(const struct uld_lock *l, const uint64_t *tag)
{
    return __atomic_load_n(tag, __ATOMIC_RELAXED) == uld_lock_tag(l);
}

static void write_tag(struct uld_lock *l, uint64_t *tag)
{
    __atomic_store_n(tag, uld_lock_tag(l), __ATOMIC_RELAXED);
    l->tagged = 1;
}

/*
 * The lock object at addr, checked against its tag: a tag other than the
 * record's means the object was constructed again, a new lifetime.  A
 * record made by an annotation (which cannot write tags) adopts the
 * object's tag.  graph_lock held.
 */
static struct uld_lock *lock_identity(struct uld_lock *l, uintptr_t addr,
                                      struct uld_lockdesc d, uintptr_t ip)
{
    if (l && d.tag && l->tagged && !tag_matches(l, d.tag)) {
        uld_lock_forget(l);
        l = NULL;
    }
    if (!l)
        l = uld_lazy_record(addr, d);
    if (!l)
        l = uld_lock_first_use(addr, d, ip);
    if (l && d.tag && !tag_matches(l, d.tag))
        write_tag(l, d.tag);
    return l;
}

static struct uld_lock *lock_get(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    struct uld_lock *l = uld_lock_lookup(addr);
    if (likely(l != NULL) && (!d.tag || likely(tag_matches(l, d.tag))))
        return l;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    l = lock_identity(uld_lock_lookup(addr), addr, d, ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return l;
}

/*
 * A lock call on a mutex, rwlock or spinlock that pthread_*_destroy ended and
 * nothing built again (tomb.c): reported once, and the call is left to the
 * program, untracked.  Cheap unless something was buried near addr or the
 * object carries glibc's destroyed mark.
 */
static int destroyed_lock_use(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                              int op, uintptr_t ip)
{
    if (d.type > ULD_TYPE_SPIN)
        return 0;
    if (!(d.flags & ULD_LF_DESTROYED)) {
        if (uld_lazy_pending(d))
            return 0; /* initialised since anything was destroyed here */
        struct uld_lock *l = uld_lock_lookup(addr);
        if (l && (!d.tag || tag_matches(l, d.tag)))
            return 0; /* a live lock */
        if (!uld_lockmap_range_marked(addr, 1))
            return 0; /* nothing was buried near addr */
    }
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    int dead = uld_tomb_use(t, addr, d, op, ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    return dead;
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

/* The record for a lock or wait object of the given type, created if new. */
static struct uld_lock *object_get(uintptr_t addr, struct uld_lockdesc d, uintptr_t ip)
{
    struct uld_lock *l = lock_get(addr, d, ip);
    if (l && unlikely(l->type != d.type || l->flags != d.flags))
        lock_retype(l, d);
    return l;
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
    uld_bigstack_run(validate_on_stack, &v);
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
static void fresh_mark(struct uld_thread *t, struct uld_lock *l, struct uld_lockdesc d)
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
    uld_report_limit("held-lock", ULD_MAX_HELD, NULL);
    uld_mutex_unlock(&uld_graph_lock);
}

/* The body of an acquisition, for an explicit subclass; uld_busy is set. */
static void begin_acquire(struct uld_thread *t, struct uld_acq *a, uintptr_t addr,
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
    if (unlikely(destroyed_lock_use(t, addr, d, ULD_DEAD_LOCK, ip))) {
        a->action = ACT_NONE;
        return;
    }
    struct uld_lock *l = object_get(addr, d, ip);
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
    if (!(mode & ULD_MODE_TRY)) /* needed before this thread can end */
        uld_wait_note_acquire(t, l, subclass, mode, ip);
    if (subclass == 0) { /* remember the outcome: next time the fast path pushes it */
        uint64_t pk = a->prev_key ^ t->sigctx;
        struct uld_fast *f = &t->fast[uld_fast_slot(addr, pk)];
        *f = (struct uld_fast){.addr = addr, .prev_key = pk, .key = a->key, .lock = l,
                               .ids = {l->id, a->node_id, 0, (uint8_t)mode, 0, l->type},
                               .tag = uld_lock_tag(l)};
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
    begin_acquire(x->t, x->a, x->addr, x->d, x->mode, x->subclass, x->ip);
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
    if (unlikely(t->in_signal)) {
        struct acquire_args x = {t, a, addr, d, mode, subclass, ip};
        uld_bigstack_run(begin_acquire_on_stack, &x);
    } else {
        begin_acquire(t, a, addr, d, mode, subclass, ip);
    }
    if (!(af & ULD_AF_TRY)) /* it may block: the watchdog and kill report see it; acquire_end ends it */
        uld_block_publish(t, lock, ip);
    uld_leave();
    return 1;
}

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
    atomic_store_explicit(&t->blocked_on, 0, memory_order_release); /* see uld_acquire_begin */
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
    uld_busy--;
}

static enum uld_owner_hint owner_hint(int owner_tid)
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
    if (destroyed_lock_use(t, addr, d, ULD_DEAD_UNLOCK, ip)) {
        uld_leave();
        return 0;
    }
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    uld_check_unlock_misuse(t, addr, d, owner_hint(owner_tid), ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    uld_leave();
    return 0;
}

/* ---- lock lifetimes -------------------------------------------------- */

void uld_lock_created(const void *lock, struct uld_lockdesc d, uintptr_t ip)
{
    if (uld_lazy_init_quick((uintptr_t)lock, d, ip)) /* the common case: a tag store */
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    uintptr_t addr = (uintptr_t)lock;
    if (uld_lazy_created(t, addr, d, ip)) {
        uld_leave();
        return;
    }
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *old = uld_lock_lookup(addr);
    /* re-initialised under another holder: its unlock will corrupt the object */
    int tainted = old && old->misused == ULD_MISUSED_REINIT;
    if (old)
        uld_lock_forget(old); /* re-initialised: a new lifetime, no inherited edges */
    struct uld_lock *l = uld_lock_create(addr, d, ULD_SITE_INIT, ip, NULL);
    if (!l) {
        atomic_store(&uld_untracked_locks, 1);
    } else {
        l->misused = (uint8_t)tainted;
        if (d.tag)
            write_tag(l, d.tag);
        fresh_mark(t, l, d);
    }
    uld_mutex_unlock(&uld_graph_lock);
    errno = saved;
    uld_leave();
}

void uld_lock_destroyed(const void *lock, struct uld_lockdesc d, int held_by_any,
                        int destroyed, uintptr_t ip)
{
    uintptr_t addr = (uintptr_t)lock;
    if (destroyed && uld_lazy_destroy_unseen(addr, d)) /* never locked: no record */
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (destroyed_lock_use(t, addr, d, ULD_DEAD_DESTROY, ip)) { /* destroyed twice */
        uld_leave();
        return;
    }
    struct uld_lock *l = uld_lock_lookup(addr);
    int mine = uld_held_find(t, addr) >= 0;
    int pending = destroyed && uld_lazy_destroyed(t, addr, d);
    /* never recorded: nothing to end; a lock never seen before (a static one
     * never taken) is still buried below, a lazily made one is not (its
     * later use is caught by glibc's mark alone, mutexes only) */
    int unseen = destroyed && d.type <= ULD_TYPE_SPIN && !pending;
    if (!l && !mine && !held_by_any && !unseen) {
        uld_leave();
        return;
    }
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    l = uld_lock_lookup(addr);
    if (mine || held_by_any)
        uld_check_destroy_held(t, l, addr, !mine, 0, ip);
    if (destroyed && d.type <= ULD_TYPE_SPIN) {
        /* a lock met first at its destroy (a static one never taken) is buried too */
        if (!l)
            l = uld_lock_first_use(addr, d, ip);
        if (l)
            uld_tomb_bury(l, addr, d, ip);
    } else if (l && destroyed) {
        uld_lock_forget(l);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    uld_leave();
}

/* This thread holds the lock at addr no more (a semaphore's token went back,
 * or the lock was re-initialised under it). */
static void held_drop(struct uld_thread *t, uintptr_t addr)
{
    int i = uld_held_find(t, addr);
    if (i < 0)
        return;
    if (i == t->depth - 1)
        t->depth--;
    else
        uld_held_remove(t, i);
}

void uld_lock_reinit_check(const void *lock, int held_by_any, uintptr_t ip)
{
    uintptr_t addr = (uintptr_t)lock;
    /* only a lock we know: fresh memory may look locked (malloc leftovers);
     * the lookup is lock-free, so a new lock costs no entry at all */
    if (atomic_load_explicit(&uld_state, memory_order_acquire) != ULD_STATE_READY ||
        !uld_lockmap_marked(addr) || !uld_lock_lookup(addr))
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *l = uld_lock_lookup(addr);
    int mine = uld_held_find(t, addr) >= 0;
    if (l && (mine || held_by_any)) {
        uld_check_reinit_held(t, l, !mine, ip);
        /* init unlocks it: this thread holds it no more; another holder's
         * later unlock corrupts the new lock's state (see lock_created) */
        if (mine)
            held_drop(t, addr);
        else
            l->misused = ULD_MISUSED_REINIT;
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    uld_leave();
}

void uld_cond_destroying(const void *cond, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    struct uld_lock *w = uld_lock_lookup((uintptr_t)cond);
    int waiters = w && w->type == ULD_TYPE_COND && w->wait ? atomic_load(&w->wait->waiters) : 0;
    if (waiters > 0) {
        int saved = errno;
        uld_mutex_lock(&uld_graph_lock);
        uld_check_cond_destroy_waiters(t, w, waiters, ip);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
        errno = saved;
    }
    uld_leave();
}

int uld_range_may_hold_locks(const void *p, size_t n)
{
    return uld_lockmap_range_marked((uintptr_t)p, n);
}

struct range_ctx {
    struct uld_thread *t;
    uintptr_t ip;
};

static void forget_in_range(struct uld_lock *l, void *arg)
{
    struct range_ctx *c = arg;
    uintptr_t addr = atomic_load(&l->addr);
    if (uld_held_find(c->t, addr) >= 0)
        uld_check_destroy_held(c->t, l, addr, 0, 1, c->ip);
    uld_lock_forget(l);
}

void uld_range_released(const void *p, size_t n, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    struct range_ctx c = {t, ip};
    uld_mutex_lock(&uld_graph_lock);
    /* locks and tombstones end: the memory may hold any object next */
    uld_lockmap_for_range((uintptr_t)p, n, forget_in_range, &c);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
    uld_leave();
}

/* ---- condition variables -------------------------------------------- */

/*
 * pthread_cond_wait releases the mutex and re-acquires it before returning:
 * the re-acquisition happens with whatever else the thread holds, so it is
 * validated (before blocking) like any acquisition.
 */
/* Run a check under graph_lock unless this exact context was checked before.
 * `extra` folds in what the check reads beyond the held chain (0: nothing). */
static void check_once(struct uld_thread *t, struct uld_lock *w, unsigned mode, uintptr_t ip,
                       int (*check)(struct uld_thread *, struct uld_lock *, uintptr_t),
                       int cacheable, uint64_t extra)
{
    uint64_t key = uld_chain_mix(uld_held_top_key(t), w->id, mode) ^ t->sigctx ^ extra;
    if (cacheable && uld_chain_contains(key))
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    if (atomic_load(&w->addr)) {
        if (check(t, w, ip) && cacheable)
            uld_chain_insert(key);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
}

/* A first wait holding locks by a thread new to w: the checks must see it. */
static int wait_cacheable(const struct uld_thread *t, const struct uld_lock *w)
{
    return t->depth == 0 || !uld_waitobj_new_thread(w, t->serial, 0);
}

/*
 * A wait by the only thread that ever woke w searches no cycle
 * (uld_check_wait): its key differs, so the first such wait after another
 * thread woke w misses the cache and searches.  The sole waker only ever
 * goes from one thread to many, so a key cached as self-woken is never
 * wrong later for anyone.
 */
static uint64_t wait_key_extra(const struct uld_thread *t, const struct uld_lock *w)
{
    int self = w->wait && atomic_load_explicit(&w->wait->waker, memory_order_relaxed) == t->serial;
    return self ? 0x53454c465f574f4bull /* "SELF_WOK" */ : 0;
}

static void report_cond_mismatch(struct uld_thread *t, struct uld_lock *cond,
                                 uintptr_t mutex, const char *what, uintptr_t ip)
{
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    uld_check_cond_mismatch(t, cond, mutex, what, ip);
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    errno = saved;
}

/* Waiters of one condvar must all use one mutex (POSIX leaves anything else undefined). */
static void count_waiter(struct uld_thread *t, struct uld_lock *cond, uintptr_t mutex,
                         uintptr_t ip)
{
    struct uld_waitobj *wo = cond->wait;
    if (!wo)
        return;
    uintptr_t bound = atomic_load(&wo->bound_mutex);
    if (atomic_fetch_add(&wo->waiters, 1) > 0 && bound && bound != mutex)
        report_cond_mismatch(t, cond, mutex,
                             "condition variable waited on with two different mutexes at once",
                             ip);
    atomic_store(&wo->bound_mutex, mutex);
}

/*
 * pthread_cond_wait releases the mutex, waits, and re-acquires the mutex:
 * the wait is checked with the locks held besides the mutex, and the
 * re-acquisition is validated (before blocking) like any acquisition.
 */
int uld_cond_wait_begin(struct uld_acq *a, const void *cond, const void *mutex,
                        struct uld_lockdesc d, int mutex_owner_tid, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return 0;
    uintptr_t addr = (uintptr_t)mutex;
    struct uld_lock *w = object_get((uintptr_t)cond, (struct uld_lockdesc){.type = ULD_TYPE_COND, .flags = 0}, ip);
    int i = uld_held_find(t, addr);
    if (i < 0) {
        if (w && owner_hint(mutex_owner_tid) != ULD_OWNER_SELF)
            report_cond_mismatch(t, w, addr,
                                 "waiting on a condition variable with a mutex this thread "
                                 "does not hold",
                                 ip);
        uld_leave();
        return 0;
    }
    struct uld_held h = t->held[i];
    uld_held_remove(t, i); /* released for the duration of the wait */
    if (w) {
        count_waiter(t, w, addr, ip);
        if (!t->disabled)
            check_once(t, w, ULD_MODE_WAIT, ip, uld_check_wait, wait_cacheable(t, w),
                       wait_key_extra(t, w));
    }
    begin_acquire(t, a, addr, d, h.mode & ULD_MODE_NOCHECK, h.subclass, ip);
    a->nest = h.nest;
    a->cond = w;
    a->cond_id = w ? w->id : 0;
    uld_leave();
    return 1;
}

void uld_cond_wait_end(struct uld_acq *a)
{
    /* the mutex is held again whatever the wait returned */
    uld_acquire_end(a, 1);
    struct uld_thread *t = a->thread;
    int i = uld_held_find(t, a->addr);
    if (i >= 0)
        t->held[i].nest = a->nest;
    struct uld_lock *w = a->cond;
    if (w && w->id == a->cond_id && w->wait)
        atomic_fetch_sub(&w->wait->waiters, 1);
}

/*
 * Semaphores as locks.  A semaphore initialised to 1 whose token a thread
 * took is held by that thread until it posts it: it goes on the held stack
 * (as a trylock: the wait before was checked as a wait), so the locks and
 * semaphores taken meanwhile depend on it, as for a mutex.  A post by a
 * thread that did not take the token makes it a signal for good; a stale
 * entry of the taker is dropped at its next wait on it.
 */
static const struct uld_lockdesc sem_lockdesc = {.type = ULD_TYPE_SEM, .flags = 0};

static int sem_is_binary(const struct uld_lock *w)
{
    return w && w->type == ULD_TYPE_SEM && w->wait && atomic_load(&w->wait->binary);
}

void uld_sem_created(const void *sem, unsigned value, uintptr_t ip)
{
    uld_lock_created(sem, sem_lockdesc, ip);
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (w && w->type == ULD_TYPE_SEM && w->wait)
        atomic_store(&w->wait->binary, value == 1);
}

void uld_sem_wait_begin(const void *sem, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    struct uld_lock *w = object_get((uintptr_t)sem, sem_lockdesc, ip);
    if (sem_is_binary(w) && uld_held_find(t, (uintptr_t)sem) >= 0) {
        /* we hold its token yet it has one to give: someone else posted it */
        atomic_store(&w->wait->binary, 0);
        held_drop(t, (uintptr_t)sem);
    }
    if (w && !t->disabled)
        check_once(t, w, ULD_MODE_WAIT, ip, uld_check_wait, wait_cacheable(t, w),
                       wait_key_extra(t, w));
    uld_leave();
}

void uld_sem_acquired(const void *sem, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (sem_is_binary(w) && uld_held_find(t, (uintptr_t)sem) < 0) {
        struct uld_acq a;
        begin_acquire(t, &a, (uintptr_t)sem, sem_lockdesc, ULD_MODE_TRY, 0, ip);
        uld_acquire_end(&a, 1);
    }
    t->sem_addr = (uintptr_t)sem; /* after the push: it is not taken "since" itself */
    t->sem_nacq = 0;
    uld_leave();
}

struct wake_args {
    struct uld_thread *t;
    const void *obj;
    int type;
    uintptr_t ip;
};

/*
 * What a post after this thread's own wait on the same semaphore depends on
 * besides the held chain: the locks taken since the wait (check.c's
 * wake_context), in order, as recorded in sem_acq.  Never 0, so such a post
 * is never mistaken for a plain one with the same held chain.
 */
static uint64_t sem_since_key(const struct uld_thread *t)
{
    uint64_t k = 0x53454d5f53494e43ull; /* "SEM_SINC" */
    for (int i = 0; i < t->sem_nacq; i++)
        k = uld_chain_mix(k, t->sem_acq[i].id, t->sem_acq[i].mode | t->sem_acq[i].subclass << 8u);
    return k;
}

static void wake(struct uld_thread *t, const void *obj, int type, uintptr_t ip)
{
    struct uld_lock *w = object_get((uintptr_t)obj, (struct uld_lockdesc){.type = (uint8_t)type, .flags = 0}, ip);
    /* a post after this thread's own wait also depends on the locks taken
     * since (sem_since_key); a new waker changes the verdict: checked once */
    int after_wait = t->sem_addr == (uintptr_t)obj;
    int cacheable = !(w && uld_waitobj_new_thread(w, t->serial, 1));
    uint64_t extra = after_wait ? sem_since_key(t) : 0;
    if (w)
        uld_wait_note_waker(w, t->serial);
    if (t->depth)
        uld_wait_announced(t);
    if (w && !t->disabled)
        check_once(t, w, ULD_MODE_WAKE, ip, uld_check_wake, cacheable, extra);
    if (after_wait)
        t->sem_addr = 0; /* the post ends what the wait began (also when cached) */
}

/*
 * The post of a semaphore token this thread holds: the release of a lock,
 * not a wake-up.  What reaching it needs was recorded while it was held
 * (the order edges from it of every lock and wait taken meanwhile); a
 * wake-up dependency on the locks taken since would also count those taken
 * by trylock, which never wait (a waiter's token taken before its guard is
 * given back, as Python's Condition.wait does, made guard -> waiter).
 */
static void sem_released(struct uld_thread *t, const void *sem)
{
    struct uld_lock *w = uld_lock_lookup((uintptr_t)sem);
    if (w)
        uld_wait_note_waker(w, t->serial);
    held_drop(t, (uintptr_t)sem);
    if (t->sem_addr == (uintptr_t)sem)
        t->sem_addr = 0;
}

static void wake_on_stack(void *arg)
{
    struct wake_args *x = arg;
    wake(x->t, x->obj, x->type, x->ip);
}

void uld_wake(const void *obj, int type, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (type == ULD_TYPE_SEM && uld_held_find(t, (uintptr_t)obj) >= 0) {
        sem_released(t, obj);
        uld_leave();
        return;
    }
    if (unlikely(t->in_signal)) { /* sem_post is async-signal-safe: as above */
        struct wake_args x = {t, obj, type, ip};
        uld_bigstack_run(wake_on_stack, &x);
    } else {
        wake(t, obj, type, ip);
    }
    if (type == ULD_TYPE_SEM) {
        struct uld_lock *w = uld_lock_lookup((uintptr_t)obj);
        if (sem_is_binary(w))
            atomic_store(&w->wait->binary, 0); /* posted by a non-taker: a signal */
    }
    uld_leave();
}

/* ---- threads, fork, exit --------------------------------------------- */

/*
 * Does another thread-specific key of this thread still hold a value?  Its
 * destructor has yet to run (glibc runs keys in index order, ours is among
 * the first) or was set again by a destructor.  pthread_getspecific()
 * returns NULL for keys never created or deleted, so every index is safe.
 */
static int other_keys_pending(void)
{
    for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++)
        if (k != thread_key && pthread_getspecific((pthread_key_t)k))
            return 1;
    return 0;
}

/*
 * Runs in glibc's thread-exit destructor rounds.  The program's own key
 * destructors may still take locks (and leave them held), so while any of
 * them is pending the thread's state is kept: setting our value again makes
 * glibc run another round, up to PTHREAD_DESTRUCTOR_ITERATIONS.  In the last
 * round the state goes whatever is pending; later lock calls are not seen.
 */
static void thread_key_destructor(void *arg)
{
    struct uld_thread *t = arg;
    if (!t || uld_self != t)
        return;
    if (t->tsd_rounds < PTHREAD_DESTRUCTOR_ITERATIONS - 1 && other_keys_pending()) {
        t->tsd_rounds++;
        pthread_setspecific(thread_key, t);
        return;
    }
    uld_busy++;
    if (atomic_load(&uld_state) == ULD_STATE_READY)
        uld_wait_thread_ends(t);
    if (t->depth > 0 && atomic_load(&uld_state) == ULD_STATE_READY) {
        uld_mutex_lock(&uld_graph_lock);
        uld_check_exit_holding(t);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
    }
    uld_self = ULD_THREAD_DEAD;
    uld_fast_self = NULL;
    uld_thread_destroy(t);
    uld_busy--;
}

void uld_thread_creating(struct uld_thread_token *tok, uintptr_t ip)
{
    (void)ip;
    memset(tok, 0, sizeof(*tok));
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    tok->created_stack = uld_stack_capture();
    uld_mutex_unlock(&uld_graph_lock);
    tok->parent_serial = t->serial;
    tok->serial = uld_thread_reserve_serial();
    errno = saved;
    uld_leave();
}

void uld_thread_started(const struct uld_thread_token *tok)
{
    uld_next_serial = tok->serial; /* taken by the state created on entry */
    struct uld_thread *t = uld_enter();
    uld_next_serial = 0;
    if (!t)
        return;
    t->parent_serial = tok->parent_serial;
    t->created_stack = tok->created_stack;
    uld_thread_publish(t);
    uld_wait_thread_begins(t);
    uld_leave();
}

/*
 * Hold every validator lock across fork so the child's copy is consistent,
 * and note which locks the other threads hold: those die with them.
 */
void uld_fork_prepare(void)
{
    uld_busy++;
    uld_report_lock_for_fork(1);
    uld_mutex_lock(&uld_graph_lock);
    struct uld_thread *self = uld_self == ULD_THREAD_DEAD ? NULL : uld_self;
    uld_forkset_clear();
    uld_threads_held_elsewhere(self, uld_forkset_add);
    uld_busy--;
}

void uld_fork_parent(void)
{
    uld_busy++;
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_lock_for_fork(0);
    uld_busy--;
}

int uld_forked_child;

/*
 * A lock the child finds unlocked was released before the fork (the
 * snapshot is racy by nature) or re-initialised since: it leaves the set.
 * One still locked and in the set is held by a thread gone with the fork,
 * unless the forking thread itself holds it too (read-held by both).
 */
void uld_fork_child_touch(const void *lock, int owner_tid, uintptr_t ip)
{
    uintptr_t addr = (uintptr_t)lock;
    if (owner_tid == 0) {
        if (uld_forkset_remove(addr) && uld_forkset_count() == 0)
            uld_forked_child = 0; /* nothing left to check: fast path again */
        return;
    }
    if (!uld_forkset_has(addr))
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    if (uld_held_find(t, addr) < 0) {
        int saved = errno;
        uld_mutex_lock(&uld_graph_lock);
        uld_check_fork_holding(t, addr, owner_tid, ip);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
        errno = saved;
    }
    uld_leave();
}

void uld_fork_child(void)
{
    own_pid = getpid();
    /* the child checks every acquisition while some lock may be a dead thread's */
    uld_forked_child = uld_forkset_count() > 0;
    uld_fast_self = NULL;
    uld_tid_reset();
    uld_mutex_reset(&uld_graph_lock);
    uld_arena_after_fork_child();
    uld_bigstack_after_fork_child();
    uld_report_after_fork_child();
    uld_procfile_after_fork_child();
    uld_graph_dump_after_fork_child();
    struct uld_thread *self = uld_self == ULD_THREAD_DEAD ? NULL : uld_self;
    uld_threads_after_fork_child(self);
    uld_watchdog_start(); /* the watchdog thread did not survive the fork */
}

/* Everything a process leaves behind when it ends, once. */
static void exit_outputs(void)
{
    static _Atomic pid_t done_for;
    if (atomic_exchange(&done_for, getpid()) == getpid())
        return;
    uld_report_flush();
    uld_graph_dump();
    if (uld_config.stats)
        uld_stats_print(uld_output_fd(ULD_OUT_LOG));
    uld_report_summary();
}

int uld_exit_status(int status)
{
    if (atomic_load(&uld_state) != ULD_STATE_READY || !in_own_process())
        return status;
    uld_busy++;
    exit_outputs();
    uld_busy--;
    if (status == 0 && uld_report_errors() > 0 && uld_config.exitcode != 0)
        return (int)uld_config.exitcode;
    return status;
}

void uld_process_exit(void)
{
    if (atomic_load(&uld_state) != ULD_STATE_READY || !in_own_process())
        return;
    uld_busy++;
    /* exit() (main's return included) with locks held: the program's atexit
     * handlers and destructors that take them have already hung or will */
    struct uld_thread *t = uld_self;
    if (t && t != ULD_THREAD_DEAD && t->depth > 0 && !t->disabled) {
        uld_mutex_lock(&uld_graph_lock);
        uld_check_exit_holding(t);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
    }
    exit_outputs();
    long errors = uld_report_errors();
    uld_busy--;
    if (errors > 0 && uld_config.exitcode != 0) {
        fflush(NULL);
        _exit((int)uld_config.exitcode);
    }
}
