/*
 * thread.h - per-thread state: the stack of held locks with the chain key
 * of each prefix, the recursion guard, pending annotations.  Only its own
 * thread writes it (fork's child step excepted); the registry links states
 * together under thread_lock for reports and fork.
 */
#ifndef ULD_THREAD_H
#define ULD_THREAD_H

#include "lock.h"

/* What a push stores besides addresses and keys: one 16-byte block, copied
 * whole from the memo on the fast path. */
struct uld_held_ids {
    uint32_t lock_id;      /* instance id */
    uint32_t node_id;      /* instance node id for the subclass */
    uint32_t nest;         /* extra re-acquisitions (recursive mutex, read recursion) */
    uint8_t mode;          /* ULD_MODE_* */
    uint8_t subclass;
    uint8_t type;          /* enum uld_lock_type */
};

#define ULD_HELD_IDS                                                        \
    union {                                                                 \
        struct uld_held_ids ids;                                            \
        struct {                                                            \
            uint32_t lock_id, node_id, nest;                                \
            uint8_t mode, subclass, type;                                   \
        };                                                                  \
    }

struct uld_held {
    uintptr_t addr;
    struct uld_lock *lock; /* valid while lock->id == lock_id; &uld_recordless: see below */
    uint64_t chain_key;    /* key of the held sequence up to and including this */
    uintptr_t ip;          /* acquisition site */
    ULD_HELD_IDS;
    uint64_t pending;      /* a recordless entry's pending tag */
};

/*
 * A recordless entry (recordless.c): a mutex taken at depth 0 before it had
 * a record.  Its lock is uld_recordless (an id no entry's lock_id equals, so
 * every "lock->id == lock_id" test fails), its chain key the address of
 * the object's tag word (no memo entry is stored under it: anything pushed
 * on top misses the memo), `pending` the tag.  The thread makes the record
 * when it next enters the validator (uld_enter).
 */
extern struct uld_lock uld_recordless ULD_HIDDEN;
static inline int uld_held_recordless(const struct uld_held *h)
{
    return h->lock == &uld_recordless;
}

/*
 * The thread's memo of recent acquisitions that validated cleanly: (lock,
 * held chain before it) -> what to push.  A hit skips the lock lookup and
 * the chain-cache probe; it is checked against the lock record's id.  Its
 * ids are the held entry's as pushed (nest and subclass 0).
 */
#define ULD_FAST_SLOTS 64
struct uld_fast {
    uintptr_t addr;
    uint64_t prev_key;     /* uld_fast_key of the chain key before */
    uint64_t key;          /* chain key after */
    struct uld_lock *lock;
    ULD_HELD_IDS;
    uint64_t tag;          /* the lock's identity tag (uld_lock_tag), precomputed */
    uint8_t sure;          /* a blocking acquisition of it never fails (fastpath.h) */
    uint8_t token;         /* a semaphore wait's entry (mode ULD_MODE_WAIT): key and ids
                            * are its token's push (waits.c) */
} __attribute__((aligned(64))); /* a hit reads one cache line */

/* held_sentinel.addr: never a lock's (locks are aligned) */
#define ULD_HELD_NONE (~(uintptr_t)0)

/* A memo entry's key: the chain key before, the signal context and the
 * mode (a constant in each wrapper, so folding it in costs nothing). */
static inline uint64_t uld_fast_key(uint64_t prev_key, uint64_t sigctx, unsigned mode)
{
    return prev_key ^ sigctx ^ (mode * 0x9fb21c651e98df25ull);
}

static inline unsigned uld_fast_slot(uintptr_t addr, uint64_t prev_key)
{
    /* prev_key is a hash already (0 with nothing held) */
    return (unsigned)(((addr >> 4) ^ prev_key) & (ULD_FAST_SLOTS - 1));
}

/*
 * A signal handler running on this thread: where its trampoline's frame is
 * (to tell whether a longjmp leaves it) and the context it interrupted.
 */
#define ULD_SIG_NEST 16
struct uld_sigframe {
    uintptr_t sp;     /* the trampoline's frame; the handler runs below it */
    uintptr_t alt_lo; /* the alternate stack's base if it runs there, else 0 */
    uint64_t saved_blocked;
    int saved_sig;
};

/* A lock this thread initialised without a record yet (lazy.c). */
#define ULD_PENDING_INITS 8
struct uld_pending_init {
    uintptr_t addr;     /* 0: free */
    uint64_t *tag_word; /* the lock's tag word, holding `tag` until recorded */
    uint64_t tag;
};

/*
 * A call site this thread initialised locks at, with the ordinals it
 * reserved there (lazy.c: the shared site cache is read once per site and
 * thread, the class's count once per reservation).
 */
#define ULD_INIT_SITES 4
struct uld_init_site {
    uintptr_t ip;         /* 0: empty */
    struct uld_class *cls;
    uint64_t tag_class;   /* the pending tag's magic and class index, precomputed */
    uint32_t gen;         /* uld_init_sites_gen when filled */
    uint32_t next;        /* the ordinal expected from the class's count next, or, once
                           * contended, the next one of the block reserved up to end */
    uint32_t end;
    uint32_t interleaved; /* takes that found another thread's in between */
};

/*
 * A stack this thread captured (stackmemo.c): where the validator was
 * entered from (ip, and the anchor: the stack pointer there), and where
 * each frame's return address lay, to check the same chain is on the
 * stack again.  Not cleared when a thread's state is reused: `serial`
 * says whose it is.
 */
#define ULD_STACK_MEMO 64
#define ULD_STACK_MEMO_WAYS 4
#define ULD_STACK_MEMO_FRAMES 32
struct uld_stack_memo {
    uint32_t serial;
    uint32_t stack;
    uintptr_t ip, anchor;
    uintptr_t slot0;                            /* frame 0's return address slot */
    uint32_t above[ULD_STACK_MEMO_FRAMES - 1]; /* frame i's slot - slot0, i >= 1 */
};

struct uld_thread {
    int tid;
    uint32_t serial;       /* 1 for the first thread seen, then in creation order */
    int depth;             /* entries in held[] */
    uint64_t fast_hits;    /* statistics: on the fast path's own cache line */
    int recordless;        /* held[0] may be a recordless entry (recordless.c) */
    int recordless_needs;  /* thread-end needs of recordless entries noted (rules/wait.c) */
    int overflow;          /* acquisitions beyond ULD_MAX_HELD, not tracked */
    int disabled;          /* uld_checking(0) nesting depth */
    uintptr_t nest_addr;   /* uld_lock_nested(): next acquisition of nest_addr */
    unsigned nest_subclass;
    char name[16];
    /* a semaphore this thread waited on: locks it takes before posting it are
     * needed to post it (a semaphore used like a lock) */
    uintptr_t sem_addr;
    int sem_nacq;
    struct uld_needed sem_acq[8];
    uint64_t blocked;        /* signal mask: bit (signo - 1) */
    int in_signal;           /* signo of the handler running now, 0 if none */
    uint64_t sigctx;         /* blocked + in_signal, folded into chain keys; 0 normally */
    int sig_depth;           /* entries in sigframe[] */
    struct uld_sigframe sigframe[ULD_SIG_NEST];
    /* watchdog: the lock this thread is blocked on now, since when, where */
    _Atomic uintptr_t blocked_on;
    uint64_t blocked_since;
    uintptr_t blocked_ip;
    uint32_t blocked_seq;    /* its wait object's wake_seq when the wait began */
    _Atomic uint32_t blocked_stack; /* filled by the thread itself on request */
    uint32_t parent_serial;  /* the thread that created it, 0 if unknown */
    uint32_t created_stack;  /* where it was created */
    uint64_t chain_hits, chain_misses, slow_ns; /* statistics */
    int max_depth;
    int tsd_rounds;          /* destructor rounds this thread's state was kept past */
    struct uld_thread *next, *prev;
    struct uld_pending_init pending[ULD_PENDING_INITS];
    unsigned pending_next;
    struct uld_init_site init_sites[ULD_INIT_SITES];
    struct uld_fast fast[ULD_FAST_SLOTS];
    uint64_t fast_noted;     /* memo slots filled by a blocking acquisition (a superset):
                              * the ones a forgotten need may have to set aside */
    int fast_aside;          /* a memo entry was ever set aside: the slow path looks for it */
    uintptr_t stack_anchor;  /* stackmemo.h: the validator's entry depth, 0 if none */
    unsigned stack_memo_next; /* the way a full set of stack_memo replaces next */
    /* stack[0] is a sentinel under held[0] (chain key 0, an address no lock
     * has), so the fast path reads the newest entry, stack[depth], without
     * testing for an empty stack */
    union {
        struct uld_held stack[ULD_MAX_HELD + 1];
        struct {
            struct uld_held held_sentinel;
            struct uld_held held[ULD_MAX_HELD];
        };
    };
    struct uld_stack_memo stack_memo[ULD_STACK_MEMO];
};

#define ULD_THREAD_DEAD ((struct uld_thread *)1)

/*
 * A memo entry set aside: its address complemented (a kernel address, no
 * lock's), so the fast path misses it, until the slow path takes it back
 * after noting what a hit skips (rules/wait.c: the thread-end needs and
 * the barrier's "since" set, forgotten by a wake-up or a barrier pass).
 */
static inline void uld_fast_set_aside(struct uld_thread *t, struct uld_fast *f)
{
    if (f->addr && !(f->addr >> (8 * sizeof(f->addr) - 1))) {
        f->addr = ~f->addr;
        t->fast_aside = 1;
    }
}

extern __thread struct uld_thread *uld_self
    __attribute__((tls_model("initial-exec"))) ULD_HIDDEN;
extern __thread unsigned uld_busy __attribute__((tls_model("initial-exec"))) ULD_HIDDEN;
/* uld_self while it may take the fast path (fastpath.h), else NULL */
extern __thread struct uld_thread *uld_fast_self
    __attribute__((tls_model("initial-exec"))) ULD_HIDDEN;

/* What reports say about a thread, kept after it exits; indexed by serial. */
struct uld_thread_info {
    int tid;
    uint32_t parent_serial;
    uint32_t created_stack;
    char name[16];
};

struct uld_thread *uld_thread_create(void) ULD_HIDDEN;
/* A serial for a thread being created; the child claims it via uld_next_serial. */
uint32_t uld_thread_reserve_serial(void) ULD_HIDDEN;
extern __thread uint32_t uld_next_serial __attribute__((tls_model("initial-exec"))) ULD_HIDDEN;
/* Record creation details of t (and its current name) in the info table. */
void uld_thread_publish(const struct uld_thread *t) ULD_HIDDEN;
/* Copy of the info for a serial; 0 if unknown. */
int uld_thread_info(uint32_t serial, struct uld_thread_info *out) ULD_HIDDEN;
void uld_thread_destroy(struct uld_thread *t) ULD_HIDDEN;
void uld_thread_refresh_name(struct uld_thread *t) ULD_HIDDEN;
void uld_threads_after_fork_child(struct uld_thread *self) ULD_HIDDEN;
/* fn(addr) for every lock held by a thread other than self (under thread_lock). */
void uld_threads_held_elsewhere(const struct uld_thread *self,
                                void (*fn)(const struct uld_held *h)) ULD_HIDDEN;
/* A consistent-enough copy of one thread for the watchdog (racy by nature). */
#define ULD_SNAP_HELD 16
struct uld_thread_snap {
    struct uld_thread *t;
    uint32_t serial;
    int tid;
    uintptr_t blocked_on, blocked_ip;
    uint64_t blocked_since;
    uint32_t blocked_seq;
    int nheld;
    uintptr_t held[ULD_SNAP_HELD];
    uintptr_t held_ip[ULD_SNAP_HELD];
    uint8_t held_mode[ULD_SNAP_HELD];
    uint64_t held_pending[ULD_SNAP_HELD]; /* a recordless entry's tag, else 0 */
    uint64_t *held_tag_word[ULD_SNAP_HELD];
    /* the newest entry, wherever it is: a fast-path acquisition pushes it
     * before the real call, so a thread blocked there shows it on top */
    uintptr_t top, top_ip;
    uint8_t top_mode;
};
int uld_threads_snapshot(struct uld_thread_snap *out, int max) ULD_HIDDEN;
/* Sum of per-thread statistics, live and exited threads. */
struct uld_thread_totals {
    uint64_t chain_hits, chain_misses, slow_ns;
    int max_depth;
    uint32_t threads;
};
void uld_threads_totals(struct uld_thread_totals *out) ULD_HIDDEN;
/* Is the calling thread running a signal handler (signal.c)? */
int uld_in_signal_handler(void) ULD_HIDDEN;
static inline uint64_t uld_held_top_key(const struct uld_thread *t)
{
    return t->stack[t->depth].chain_key;
}
/*
 * t is about to block on lock, called from ip: published for the kill-time
 * report and the watchdog (release, not seq_cst: readers only need these
 * fields published first; a full fence cost more than the rest of a
 * slow-path acquisition).  blocked_since is the watchdog's alone, set by
 * uld_block_publish while it runs (the fast path never runs then).
 */
static inline void uld_blocked_set(struct uld_thread *t, const void *lock, uintptr_t ip)
{
    t->blocked_ip = ip;
    atomic_store_explicit(&t->blocked_stack, 0, memory_order_relaxed);
    atomic_store_explicit(&t->blocked_on, (uintptr_t)lock, memory_order_release);
}
/* ... and is not blocked any more. */
static inline void uld_blocked_clear(struct uld_thread *t)
{
    atomic_store_explicit(&t->blocked_on, 0, memory_order_release);
}
/* A wait or try took a token of the semaphore at sem: the locks taken from
 * now until its post may be what the post needs (sem_acq).  After the
 * token's own push: it is not taken "since" itself. */
static inline void uld_sem_taken_since(struct uld_thread *t, uintptr_t sem)
{
    t->sem_addr = sem;
    t->sem_nacq = 0;
}
/* Index of the newest entry for addr, or -1. */
int uld_held_find(const struct uld_thread *t, uintptr_t addr) ULD_HIDDEN;
/* Is t running a one-time initialiser (pthread_once, a C++ static guard)? */
int uld_held_once(const struct uld_thread *t) ULD_HIDDEN;
/* Remove entry i; entries above it get their chain keys recomputed. */
void uld_held_remove(struct uld_thread *t, int i) ULD_HIDDEN;

#endif
