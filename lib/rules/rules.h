/*
 * rules.h - what the rules (check.c, watchdog.c) offer the entry points:
 * each check runs with graph_lock held and turns a problem into a report.
 */
#ifndef ULD_RULES_H
#define ULD_RULES_H

#include "model/lock.h"
#include "model/thread.h"
#include "base/platform.h"

/* Who holds a lock that the releasing thread does not hold. */
enum uld_owner_hint {
    ULD_OWNER_NONE,   /* nobody */
    ULD_OWNER_OTHER,  /* another thread */
    ULD_OWNER_SELF,   /* this thread, acquired where we could not see it */
    ULD_OWNER_UNKNOWN,
};

extern struct uld_platform uld_platform ULD_HIDDEN; /* watchdog.c */
void uld_watchdog_start(void) ULD_HIDDEN;
int uld_check_kill(int sig, int from_self, unsigned was_busy) ULD_HIDDEN;
/* exit(): threads stuck on each other, or on a lock whose holder waits, the
 * same 200 ms later: deadlock-detected, hang-through-wait (watchdog.c). */
void uld_check_exit_hang(void) ULD_HIDDEN;
/* watchdog.c: t is about to block on lock (no validator entry of its own). */
void uld_block_publish(struct uld_thread *t, const void *lock, uintptr_t ip) ULD_HIDDEN;

/* check.c: the rules, called with graph_lock held. */
struct uld_report;
void uld_report_fill_thread(struct uld_report *r, struct uld_thread *t, uintptr_t ip) ULD_HIDDEN;
void uld_check_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                       unsigned mode, uintptr_t ip) ULD_HIDDEN;
/* A fresh lock's first acquisition: no dependency from the first born_under
 * held entries (held since the lock's init), see core.c. */
void uld_check_first_acquire(struct uld_thread *t, struct uld_lock *l, unsigned subclass,
                             unsigned mode, uintptr_t ip, int born_under) ULD_HIDDEN;
void uld_check_unlock_misuse(struct uld_thread *t, uintptr_t addr, struct uld_lockdesc d,
                             enum uld_owner_hint owner, uintptr_t ip) ULD_HIDDEN;
void uld_check_exit_holding(struct uld_thread *t) ULD_HIDDEN;
void uld_check_exit_holding_signal(struct uld_thread *t, int sig) ULD_HIDDEN;
/* A trylock of a lock the thread holds failed (EBUSY); graph_lock held. */
void uld_check_trylock_held(struct uld_thread *t, struct uld_lock *l, uintptr_t ip) ULD_HIDDEN;
/* Re-initialisation of a held lock; destroy of a condvar threads wait on. */
void uld_check_reinit_held(struct uld_thread *t, struct uld_lock *l, int held_elsewhere,
                           uintptr_t ip) ULD_HIDDEN;
void uld_check_cond_destroy_waiters(struct uld_thread *t, struct uld_lock *cond, int waiters,
                                    uintptr_t ip) ULD_HIDDEN;
/* A lock call (enum uld_dead_op) on a destroyed lock: rec is its retired
 * record, named with the id and address it had (model/tomb.h). */
void uld_check_use_after_destroy(struct uld_thread *t, struct uld_lock *rec, uint32_t id,
                                 uintptr_t addr, uintptr_t destroy_ip, int op,
                                 uintptr_t ip) ULD_HIDDEN;
void uld_check_destroy_held(struct uld_thread *t, struct uld_lock *l, uintptr_t addr,
                            int held_elsewhere, int freed, uintptr_t ip) ULD_HIDDEN;
void uld_check_assert_held(struct uld_thread *t, uintptr_t addr, uintptr_t ip) ULD_HIDDEN;
void uld_check_fork_holding(struct uld_thread *t, uintptr_t addr, int owner_tid,
                            uintptr_t ip) ULD_HIDDEN;
/* 0: the outcome depends on the thread, do not cache it */
int uld_check_wait(struct uld_thread *t, struct uld_lock *w, uintptr_t ip) ULD_HIDDEN;
int uld_check_wake(struct uld_thread *t, struct uld_lock *w, uintptr_t ip) ULD_HIDDEN;
void uld_check_cond_mismatch(struct uld_thread *t, struct uld_lock *cond, uintptr_t mutex,
                             const char *what, uintptr_t ip) ULD_HIDDEN;
void uld_check_signal_context(struct uld_thread *t, struct uld_lock *l, unsigned mode,
                              uintptr_t ip) ULD_HIDDEN;


#endif
