/*
 * core.c - start-up and the lifecycle of threads and the process (create, start, exit, fork, exit status).  The
 * other entry points are in acquire.c (take, release), lifetime.c (init,
 * destroy, free) and waits.c (condition variables, semaphores, wakers).
 * The global state they share is in model/state.[ch].
 */
#include "report/symbolize.h"
#include "entry.h"

#include "model/chain.h"
#include "base/config.h"
#include "base/platform.h"
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

int uld_lock_tags;

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
    ok = ok && pthread_key_create(&uld_thread_key, thread_key_destructor) == 0;
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
        if (k != uld_thread_key && pthread_getspecific((pthread_key_t)k))
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
        pthread_setspecific(uld_thread_key, t);
        return;
    }
    uld_busy++;
    if (t->recordless && atomic_load(&uld_state) == ULD_STATE_READY)
        uld_recordless_materialise(t); /* its exit check needs the record */
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

/* A lock another thread holds at fork; a recordless entry's gets its record
 * now, for the child to name it. */
static void fork_note_held(const struct uld_held *h)
{
    uld_forkset_add(h->addr);
    uld_recordless_publish(h);
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
    uld_threads_held_elsewhere(self, fork_note_held);
    uld_busy--;
}

void uld_fork_parent(void)
{
    uld_busy++;
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_lock_for_fork(0);
    uld_busy--;
}


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
    uld_report_flush_final();
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

int uld_process_exit(void)
{
    if (atomic_load(&uld_state) != ULD_STATE_READY || !in_own_process())
        return -1;
    uld_busy++;
    /* threads that can never finish: the process exits past a hang */
    if (uld_config.kill_report)
        uld_check_exit_hang();
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
    /* the interposer exits with it: lib/ never calls the wrapped _exit */
    return errors > 0 && uld_config.exitcode != 0 ? (int)uld_config.exitcode : -1;
}

void uld_set_platform(const struct uld_platform *p)
{
    uld_platform = *p;
}

int uld_kill_report_wanted(void)
{
    return atomic_load(&uld_state) == ULD_STATE_READY && uld_config.kill_report;
}

void uld_kill_report(int sig, int from_self)
{
    if (!uld_kill_report_wanted() || atomic_load(&uld_aborting))
        return;
    int saved = errno;
    unsigned was_busy = uld_busy;
    uld_busy = 1;
    int queued = uld_check_kill(sig, from_self, was_busy);
    /* another thread may be printing (and so owe ours): give it a second.
     * A signal from outside may have interrupted the loader or malloc: then
     * libdw is used only if an earlier report loaded it.  A self-sent one
     * (raise, abort) runs where the program called it, and may load it. */
    uld_dw_forbid_load(!from_self);
    for (int i = 0; queued && i < 100; i++) {
        uld_report_flush();
        if (!uld_report_pending())
            break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    uld_dw_forbid_load(0);
    uld_busy = was_busy;
    errno = saved;
}
