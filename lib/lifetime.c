/*
 * lifetime.c - entry points for a lock's life: init, destroy, re-init,
 * memory freed under a lock record.
 */
#include "entry.h"

#include "model/chain.h"
#include "base/config.h"
#include "model/forkset.h"
#include "model/modules.h"
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
    uld_stack_anchor_set(t, (uintptr_t)__builtin_frame_address(0)); /* the init site's stack */
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
            uld_tag_write(l, d.tag);
        uld_fresh_mark(t, l, d);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_stack_anchor_clear(t);
    errno = saved;
    uld_leave();
}

void uld_lock_destroyed(const void *lock, struct uld_lockdesc d, int held_by_any,
                        int destroyed, uintptr_t ip)
{
    uintptr_t addr = (uintptr_t)lock;
    if (destroyed && uld_lazy_destroy_unseen(addr, d, ip)) /* never locked: no record */
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    struct uld_lock *l = uld_lock_lookup(addr);
    if (uld_destroyed_lock_use_found(t, addr, d, l, ULD_DEAD_DESTROY, ip)) { /* destroyed twice */
        uld_leave();
        return;
    }
    int mine = uld_held_find(t, addr) >= 0;
    if (destroyed && t->recordless_needs)
        uld_wait_recordless_drop(t, addr);
    int pending = destroyed && uld_lazy_destroyed(t, addr, d, ip);
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
    l = uld_lock_recheck(l, addr);
    if (!l && held_by_any && !destroyed) /* another thread's recordless entry's */
        l = uld_lazy_record(addr, d);
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
void uld_held_drop(struct uld_thread *t, uintptr_t addr)
{
    int i = uld_held_find(t, addr);
    if (i < 0)
        return;
    if (i == t->depth - 1)
        t->depth--;
    else
        uld_held_remove(t, i);
}

void uld_lock_reinit_check(const void *lock, struct uld_lockdesc d, int held_by_any,
                           uintptr_t ip)
{
    uintptr_t addr = (uintptr_t)lock;
    /* only a lock we know: fresh memory may look locked (malloc leftovers);
     * the lookup is lock-free, so a new lock costs no entry at all.  One
     * initialised but not recorded yet that looks held may be a recordless
     * entry's (recordless.c). */
    int pending = held_by_any && d.tag && uld_tag_is_pending(__atomic_load_n(d.tag,
                                                                             __ATOMIC_RELAXED));
    if (atomic_load_explicit(&uld_state, memory_order_acquire) != ULD_STATE_READY ||
        (!pending && (!uld_lockmap_marked(addr) || !uld_lock_lookup(addr))))
        return;
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    int saved = errno;
    uld_mutex_lock(&uld_graph_lock);
    struct uld_lock *l = uld_lock_lookup(addr);
    if (!l && pending)
        l = uld_lazy_record(addr, d);
    int mine = uld_held_find(t, addr) >= 0;
    if (l && (mine || held_by_any)) {
        uld_check_reinit_held(t, l, !mine, ip);
        /* init unlocks it: this thread holds it no more; another holder's
         * later unlock corrupts the new lock's state (see lock_created) */
        if (mine)
            uld_held_drop(t, addr);
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

/* ---- dlclose: what an unload unmapped ends its identities -------------- */

struct uld_modset *uld_modules_before_unload(void)
{
    if (!uld_enter())
        return NULL;
    struct uld_modset *s = uld_modset_take();
    uld_leave();
    return s;
}

void uld_modules_after_unload(struct uld_modset *s)
{
    if (!s)
        return;
    if (!uld_enter()) {
        uld_modset_free(s);
        return;
    }
    uld_mutex_lock(&uld_graph_lock);
    uld_modset_retire_gone(s);
    uld_mutex_unlock(&uld_graph_lock);
    uld_modset_free(s);
    uld_report_flush();
    uld_leave();
}
