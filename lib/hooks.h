/*
 * hooks.h - the validator's entry points for the interposer (preload/).
 * preload/ includes only this header and include/ulockdep.h.  Every hook
 * is cheap to call when the validator is off or re-entered: it returns at
 * once and the wrapper calls the real function.
 */
#ifndef ULD_HOOKS_H
#define ULD_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/platform.h"
#include "model/locktype.h"

/* Option lock_tags: may the validator write identity tags into lock objects? */
extern int uld_lock_tags;

/* Acquisition flags. */
#define ULD_AF_READ 0x1u
#define ULD_AF_TRY 0x2u

/* State carried from uld_acquire_begin() to uld_acquire_end(). */
struct uld_acq {
    struct uld_thread *thread;
    struct uld_lock *lock;
    uintptr_t addr, ip;
    uint64_t key;          /* chain key with this acquisition */
    uint64_t prev_key;     /* chain key it was computed from */
    uint32_t node_id, lock_id;
    uint8_t mode, subclass;
    uint8_t action;        /* what end() must do: push, nest or nothing */
    uint8_t try_held;      /* a trylock of a lock this thread holds: EBUSY is misuse */
    uint32_t nest;         /* condition waits: re-acquisition count to restore */
    struct uld_lock *cond; /* condition waits: the condvar, to count waiters */
    uint32_t cond_id;
};

/* 1: validated, call uld_acquire_end() after the real call; 0: pass through. */
int uld_acquire_begin(struct uld_acq *a, const void *lock, struct uld_lockdesc d,
                      unsigned af, uintptr_t ip);
void uld_acquire_end(struct uld_acq *a, int acquired);
/*
 * Before the real unlock.  owner_tid is who holds the lock as the object
 * itself says: 0 nobody, ULD_OWNER_SOMEONE locked by an unknown thread, else
 * the owner's tid.  Returns 1 if the release was tracked.
 */
#define ULD_OWNER_SOMEONE (-1)
int uld_on_release(const void *lock, struct uld_lockdesc d, int owner_tid, uintptr_t ip);
/* pthread_*_init and friends: a new lock lifetime starts at `lock`. */
void uld_lock_created(const void *lock, struct uld_lockdesc d, uintptr_t ip);
/*
 * Before pthread_{mutex,rwlock,spin}_init: held_by_any, the object says it
 * is locked.  A known lock re-initialised while held is misuse.
 */
void uld_lock_reinit_check(const void *lock, struct uld_lockdesc d, int held_by_any,
                           uintptr_t ip);
/* Before pthread_cond_destroy: threads still waiting on it is misuse. */
void uld_cond_destroying(const void *cond, uintptr_t ip);
/*
 * After pthread_*_destroy.  held_by_any: the object said it was locked
 * before the call; destroyed: the call succeeded, the lifetime ends.
 */
void uld_lock_destroyed(const void *lock, struct uld_lockdesc d, int held_by_any,
                        int destroyed, uintptr_t ip);
/* Memory [p, p+n) is being freed or unmapped: locks inside it end. */
int uld_range_may_hold_locks(const void *p, size_t n);  /* cheap, lock-free */
void uld_range_released(const void *p, size_t n, uintptr_t ip);

/*
 * Condition-variable waits release `mutex` and re-acquire it.  begin()
 * checks the wait (wait-for cycles, wrong mutex) and validates the
 * re-acquisition; returns 1 if end() must be called.  mutex_owner_tid: who
 * the mutex object says holds it.
 */
int uld_cond_wait_begin(struct uld_acq *a, const void *cond, const void *mutex,
                        struct uld_lockdesc d, int mutex_owner_tid, uintptr_t ip);
void uld_cond_wait_end(struct uld_acq *a);
/*
 * sem_init succeeded with this initial value.  A semaphore initialised to 1
 * is a lock while a thread has taken it and not posted it yet (until some
 * thread posts a token it did not take: then it is a signal).
 */
void uld_sem_created(const void *sem, unsigned value, uintptr_t ip);
/* A blocking semaphore wait is about to start (before blocking). */
void uld_sem_wait_begin(const void *sem, uintptr_t ip);
/* A semaphore wait or trywait succeeded (ip: the call site). */
void uld_sem_acquired(const void *sem, int waited, uintptr_t ip);
/* sem_destroy is about to run on sem. */
void uld_sem_destroying(const void *sem);
/* pthread_cond_signal/broadcast or sem_post on obj (ULD_TYPE_COND/SEM). */
void uld_wake(const void *obj, int type, uintptr_t ip);

/*
 * Other waits (lib/wait.c).  A thread's end is a wait object at the address
 * of its pthread_t: joining it while holding L deadlocks if the thread
 * takes L before it ends.  join_begin before a blocking join (timed too;
 * a tryjoin never waits); join_end after, joined: the thread is gone.
 */
void uld_join_begin(const void *thread_obj, uintptr_t ip);
void uld_join_end(const void *thread_obj, int joined);
/* pthread_barrier_wait on b: before the real call, and after it returned. */
void uld_barrier_wait_begin(const void *b, uintptr_t ip);
void uld_barrier_wait_end(const void *b);
/* A blocking wait (cond, sem, join, barrier) starts / ends: for the
 * watchdog and the kill-time report, whatever the watchdog option. */
void uld_wait_blocked(const void *obj, uintptr_t ip);
void uld_wait_unblocked(void);
/* A timed lock or wait on obj expired (returned ETIMEDOUT). */
void uld_wait_timed_out(const void *obj, uintptr_t ip);

/*
 * Signals.  Masks are 64-bit: bit (signo - 1).  The interposer's handler
 * trampoline brackets every handler with enter/leave; enter takes the
 * trampoline's frame address and the alternate stack's base if the handler
 * runs on it (else 0), and returns the token leave wants.  A longjmp tells
 * the validator where it lands (0: unknown), so handlers it leaves end, and
 * the mask it restores (restore_mask: sigsetjmp saved one).
 */
void uld_signal_installed(int sig);
int uld_signal_enter(int sig, uint64_t extra_blocked, uintptr_t sp, uintptr_t alt_lo);
void uld_signal_leave(int token);
void uld_signal_jump(uintptr_t target_sp, int restore_mask, uint64_t mask);
void uld_signal_mask_changed(int how, uint64_t set); /* after a successful mask change */

/*
 * In a fork child, locks other threads held at fork stay locked forever.
 * uld_forked_child is set in the child; the interposer then reports each
 * touch of a lock the object says is held (owner_tid as for uld_on_release).
 */
extern int uld_forked_child;
void uld_fork_child_touch(const void *lock, int owner_tid, uintptr_t ip);

/*
 * Blocked state for the watchdog (option watchdog=SEC) and the kill-time
 * report: a blocking lock call is bracketed by uld_acquire_begin/end, which
 * publish it; other blocking waits (condvars, semaphores, joins) bracket
 * the call with block_begin/block_end.
 */
extern int uld_watchdog_on;
void uld_block_begin(const void *lock, uintptr_t ip);
void uld_block_end(void);
/*
 * Kill-time reports (option kill_report): a fatal signal with the default
 * disposition arrived; from the interposer's handler, before the default
 * action.  Bounded in time.  from_self: this process sent it (raise, abort,
 * kill of its own pid), so the thread is at that call, not inside malloc;
 * otherwise a report that nothing else symbolises names code by module and
 * offset only (async-signal-safe).
 */
int uld_kill_report_wanted(void);
void uld_kill_report(int sig, int from_self);

/* What the validator needs from the interposer (base/platform.h). */
void uld_set_platform(const struct uld_platform *p);

/* Process and thread lifecycle. */
void uld_init(void);                  /* idempotent; called by every wrapper */
int uld_is_ready(void);
/*
 * pthread_create: the creator fills a token for the child (its own serial,
 * the child's serial, reserved now so threads are numbered in creation
 * order, and the creation stack); the child hands it back when it starts.
 */
struct uld_thread_token {
    uint32_t parent_serial, serial, created_stack;
};
void uld_thread_creating(struct uld_thread_token *tok, uintptr_t ip);
void uld_thread_started(const struct uld_thread_token *tok);
void uld_thread_exiting(void);        /* from pthread_exit, before unwinding */
void uld_fork_prepare(void);
void uld_fork_parent(void);
void uld_fork_child(void);
int uld_process_exit(void);           /* atexit: drain reports; a status to _exit with, or -1 */
int uld_exit_status(int status);      /* _exit: drain reports; the status to use */
int uld_self_tid(void);               /* cached gettid() */
/* dlclose: a snapshot of the loaded objects before the real call (NULL if
 * not checking), handed back (and freed) after it: objects gone by then end
 * the identities of their locks and classes (lib/modules.c). */
struct uld_modset;
struct uld_modset *uld_modules_before_unload(void);
void uld_modules_after_unload(struct uld_modset *snapshot);
/* libulockdep's own code, skipped at the top of captured stacks */
void uld_set_own_text(uintptr_t lo, uintptr_t hi);

#endif
