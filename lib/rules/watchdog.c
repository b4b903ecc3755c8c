/*
 * watchdog.c - threads blocked right now: live deadlock detection (option
 * watchdog=SEC), hangs through waits, and the report of blocked threads
 * when a fatal signal ends the process (option kill_report).  Blocking
 * acquisitions publish "blocked on L since T" in their thread state; a
 * background thread looks every SEC/2 seconds for threads blocked for SEC
 * seconds in a cycle (each waits for a lock the next one holds), asks each
 * of them for its stack with a signal, and prints the cycle.  The potential
 * deadlock was reported earlier, when the cycle first closed in the graph;
 * this report says it has now happened.  Off by default: then blocking
 * acquisitions pay one load.
 */
#include "report/symbolize.h"
#include "model/chain.h"
#include "base/config.h"
#include "rules.h"
#include "model/state.h"
#include "report/report.h"
#include "model/stack.h"
#include "wait.h"
#include "model/lazy.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WD_MAX_THREADS 512
#define WD_STACK_SIGNAL (SIGRTMAX - 1)

struct uld_platform uld_platform;

static struct uld_thread_snap snaps[WD_MAX_THREADS];
static int stack_handler_installed;

/* t is about to block on lock: published for the watchdog and the kill report. */
void uld_block_publish(struct uld_thread *t, const void *lock, uintptr_t ip)
{
    if (uld_watchdog_on) /* its clock alone: the kill-time report does without */
        t->blocked_since = uld_now_coarse_ns();
    uld_blocked_set(t, lock, ip);
}

/* Runs on a blocked thread: record where it is blocked. */
static void stack_request(int sig)
{
    (void)sig;
    struct uld_thread *t = uld_self;
    if (!t || t == ULD_THREAD_DEAD || uld_busy || !atomic_load(&t->blocked_on))
        return;
    int saved = errno;
    uld_busy = 1;
    uld_mutex_lock(&uld_graph_lock);
    atomic_store(&t->blocked_stack, uld_stack_capture_skip(1)); /* not the signal frame */
    uld_mutex_unlock(&uld_graph_lock);
    uld_busy = 0;
    errno = saved;
}

static void collect_stacks(struct uld_thread_snap **cycle, int n)
{
    if (!stack_handler_installed && uld_platform.sigaction) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = stack_request;
        sa.sa_flags = SA_RESTART;
        uld_platform.sigaction(WD_STACK_SIGNAL, &sa, NULL);
        stack_handler_installed = 1;
    }
    for (int i = 0; i < n; i++)
        syscall(SYS_tgkill, getpid(), cycle[i]->tid, WD_STACK_SIGNAL);
    for (int waited = 0; waited < 50; waited++) { /* up to half a second */
        int done = 1;
        for (int i = 0; i < n; i++)
            done &= atomic_load(&cycle[i]->t->blocked_stack) != 0;
        if (done)
            break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* The thread holding addr (other than `waiter`), or NULL. */
static struct uld_thread_snap *holder_in(struct uld_thread_snap *v, uintptr_t addr,
                                         const struct uld_thread_snap *waiter, int n)
{
    for (int i = 0; i < n; i++) {
        if (&v[i] == waiter)
            continue;
        for (int k = 0; k < v[i].nheld; k++)
            if (v[i].held[k] == addr)
                return &v[i];
    }
    return NULL;
}

/* Follow "blocked on a lock held by" from each stuck thread; return a cycle. */
static int find_cycle_in(struct uld_thread_snap *snaps, int n, uint64_t min_since,
                         struct uld_thread_snap **cycle)
{
    struct uld_thread_snap *next[WD_MAX_THREADS];
    for (int i = 0; i < n; i++) {
        next[i] = NULL;
        if (snaps[i].blocked_on && snaps[i].blocked_since <= min_since)
            next[i] = holder_in(snaps, snaps[i].blocked_on, &snaps[i], n);
    }
    for (int i = 0; i < n; i++) {
        int len = 0;
        /* n distinct threads at most, then the walk must come back to one of
         * them: the check below runs for the (n+1)-th step too, or a cycle of
         * every thread of the process goes unseen */
        struct uld_thread_snap *path[WD_MAX_THREADS];
        for (struct uld_thread_snap *s = &snaps[i]; s && len <= n; s = next[s - snaps]) {
            for (int j = 0; j < len; j++) {
                if (path[j] == s) {
                    int m = 0;
                    for (int k = j; k < len; k++)
                        cycle[m++] = path[k];
                    return m;
                }
            }
            if (len == n)
                break;
            path[len++] = s;
        }
    }
    return 0;
}

/* How long a report's threads have been blocked: now 0 is the exit-time check. */
static void put_period(char *out, size_t n, const struct uld_thread_snap *s, uint64_t now)
{
    if (now)
        uld_snprintf(out, n, "for %lu s",
                     (unsigned long)((now - s->blocked_since) / 1000000000ull));
    else
        uld_snprintf(out, n, "when the process exited");
}

static void report_deadlock(struct uld_thread_snap **cycle, int n, uint64_t now)
{
    uint32_t ids[WD_MAX_THREADS];
    int nids = 0;
    uld_mutex_lock(&uld_graph_lock);
    for (int i = 0; i < n; i++) {
        struct uld_lock *l = uld_lock_lookup(cycle[i]->blocked_on);
        ids[nids++] = l ? l->id : 0;
    }
    uint64_t key = ULD_R_DEADLOCK;
    for (int i = 0; i < nids; i++) /* rotation-independent: sum and xor of ids */
        key += uld_chain_mix(0, ids[i], 0);
    struct uld_report *r = uld_report_seen(key) ? NULL : uld_report_new(ULD_R_DEADLOCK);
    for (int i = 0; r && i < n && i < ULD_R_MAX_LOCKS; i++) {
        struct uld_thread_snap *s = cycle[i];
        struct uld_thread_snap *prev = cycle[(i + n - 1) % n];
        struct uld_lock *wants = uld_lock_lookup(s->blocked_on);
        struct uld_lock *holds = uld_lock_lookup(prev->blocked_on);
        if (!wants || !holds)
            continue;
        uintptr_t held_ip = 0;
        for (int k = 0; k < s->nheld; k++)
            if (s->held[k] == prev->blocked_on)
                held_ip = s->held_ip[k];
        struct uld_rstep *st = &r->steps[r->nsteps++];
        st->from = uld_report_add_lock(r, holds, 0);
        st->to = uld_report_add_lock(r, wants, 0);
        st->stack_id = atomic_load(&s->t->blocked_stack);
        st->from_ip = held_ip;
        st->tid = s->tid;
        st->serial = s->serial;
    }
    if (r) {
        struct uld_thread_snap *s = cycle[0];
        r->serial = s->serial;
        r->tid = s->tid;
        r->ip = s->blocked_ip;
        char period[32];
        put_period(period, sizeof(period), s, now);
        uld_snprintf(r->detail, sizeof(r->detail), "%d threads blocked on each other %s", n,
                     period);
        uld_report_submit(r, key);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    if (r && uld_config.watchdog_abort) {
        uld_warn("watchdog_abort is set: aborting to leave a core");
        uld_abort();
    }
}

/* The record of a snapshot's held lock k: one a recordless entry has
 * none of yet gets it (not in a signal handler).  graph_lock held. */
static struct uld_lock *snap_held_lock(const struct uld_thread_snap *s, int k, int may_make)
{
    struct uld_lock *l = uld_lock_lookup(s->held[k]);
    if (!l && may_make && s->held_pending[k])
        l = uld_lazy_record_at(s->held[k], s->held_tag_word[k], s->held_pending[k]);
    return l;
}

/* A snapshot's held locks as report entries (context only). */
static void add_held(struct uld_report *r, const struct uld_thread_snap *s)
{
    for (int k = 0; k < s->nheld && r->nheld < ULD_R_MAX_HELD; k++) {
        struct uld_lock *l = snap_held_lock(s, k, 1);
        int known = r->nlocks;
        int idx = l ? uld_report_add_lock(r, l, 0) : -1;
        if (idx >= known)
            r->locks[idx].context = 1; /* shown, not one of the report's subjects */
        if (idx >= 0)
            r->held[r->nheld++] = (struct uld_rheld){idx, s->held_mode[k], s->held_ip[k],
                                                     s->serial};
    }
}

/* "T3, T5" of the threads that woke w; sets *mine when `serial` is one. */
static void put_wakers(char *out, size_t n, const struct uld_lock *w, uint32_t serial, int *mine)
{
    size_t len = 0;
    out[0] = 0;
    *mine = 0;
    for (int i = 0; w->wait && i < (int)ULD_ARRAY_SIZE(w->wait->wakers); i++) {
        uint32_t s = atomic_load(&w->wait->wakers[i]);
        if (!s)
            break;
        *mine |= s == serial;
        len += (size_t)uld_snprintf(out + len, n - len, "%sT%u", len ? ", " : "", s);
        if (len >= n)
            break;
    }
}

/*
 * blocked waits on lock l held by holder, which has been blocked in a wait
 * on w for the whole period: nothing but blocked could end holder's wait
 * (when it woke w before, or w is its end), and blocked cannot move.
 */
static uint64_t hang_key(const struct uld_lock *l, const struct uld_lock *w)
{
    return uld_chain_mix(uld_chain_mix(ULD_R_HANG_WAIT, l->id, 0), w->id, 1);
}

static void report_hang(struct uld_thread_snap *blocked, struct uld_thread_snap *holder,
                        struct uld_lock *l, struct uld_lock *w, uint64_t now)
{
    uint64_t key = hang_key(l, w);
    if (uld_report_seen(key) || atomic_load(&l->addr) != blocked->blocked_on ||
        atomic_load(&w->addr) != holder->blocked_on)
        return;
    struct uld_report *r = uld_report_new(ULD_R_HANG_WAIT);
    if (!r)
        return;
    int li = uld_report_add_lock(r, l, 0), wi = uld_report_add_lock(r, w, 0);
    uintptr_t held_ip = 0;
    for (int k = 0; k < holder->nheld; k++)
        if (holder->held[k] == blocked->blocked_on)
            held_ip = holder->held_ip[k];
    r->steps[0] = (struct uld_rstep){.from = li, .to = wi, .from_ip = held_ip,
                                     .stack_id = atomic_load(&holder->t->blocked_stack),
                                     .tid = holder->tid, .serial = holder->serial,
                                     .to_mode = ULD_MODE_WAIT};
    r->steps[1] = (struct uld_rstep){.from = wi, .to = li, .from_ip = blocked->blocked_ip,
                                     .stack_id = atomic_load(&blocked->t->blocked_stack),
                                     .tid = blocked->tid, .serial = blocked->serial};
    r->nsteps = 2;
    add_held(r, holder);
    r->held_split = r->nheld;
    add_held(r, blocked);
    r->serial = blocked->serial;
    r->tid = blocked->tid;
    r->ip = blocked->blocked_ip;
    r->target = li;
    char wakers[96];
    int mine;
    put_wakers(wakers, sizeof(wakers), w, blocked->serial, &mine);
    char period[32];
    put_period(period, sizeof(period), blocked, now);
    if (mine)
        uld_snprintf(r->detail, sizeof(r->detail),
                     "%s; the wait is ended only by T%u, the blocked thread itself "
                     "(certain)", period, blocked->serial);
    else if (wakers[0])
        uld_snprintf(r->detail, sizeof(r->detail), "%s; woken before by %s", period, wakers);
    else
        uld_snprintf(r->detail, sizeof(r->detail), "%s; never woken before", period);
    uld_report_submit(r, key);
}

/* Is every thread that ever woke w blocked in snapshot v (and one did)?  Then
 * nothing is left to end a wait on w. */
static int wakers_all_blocked(const struct uld_lock *w, struct uld_thread_snap *v, int n)
{
    if (!w->wait || w->type == ULD_TYPE_BARRIER)
        return 0;
    int seen = 0;
    for (int i = 0; i < (int)ULD_ARRAY_SIZE(w->wait->wakers); i++) {
        uint32_t s = atomic_load(&w->wait->wakers[i]);
        if (!s)
            break;
        int blocked = 0;
        for (int k = 0; k < n && !blocked; k++)
            blocked = v[k].serial == s && v[k].blocked_on;
        if (!blocked)
            return 0;
        seen = 1;
    }
    return seen;
}

/* The thread of snapshot v that holds what a is blocked on and is blocked
 * itself, both since min_since at least, or NULL. */
static struct uld_thread_snap *blocked_holder(struct uld_thread_snap *v, int n,
                                              const struct uld_thread_snap *a, uint64_t min_since)
{
    struct uld_thread_snap *b;
    if (!a->blocked_on || a->blocked_since > min_since ||
        !(b = holder_in(v, a->blocked_on, a, n)) || !b->blocked_on ||
        b->blocked_since > min_since)
        return NULL;
    return b;
}

/* Threads of snapshot v blocked on a lock whose holder is blocked in a wait,
 * both for the period (now 0: at exit, when every waker of the wait is
 * blocked too). */
static void find_hangs(struct uld_thread_snap *v, int n, uint64_t min_since, uint64_t now)
{
    for (int i = 0; i < n; i++) {
        struct uld_thread_snap *a = &v[i], *b = blocked_holder(v, n, a, min_since);
        if (!b)
            continue;
        struct uld_lock *l = uld_lock_lookup(a->blocked_on);
        struct uld_lock *w = uld_lock_lookup(b->blocked_on);
        if (!l || !w || uld_is_wait_type(l->type) || !uld_is_wait_type(w->type))
            continue;
        /* at exit, only when certain: a live waker may be the program's plan
         * (a leader waits for work holding the followers' lock) */
        if (!now && !wakers_all_blocked(w, v, n))
            continue;
        uld_mutex_lock(&uld_graph_lock);
        int seen = uld_report_seen(hang_key(l, w));
        uld_mutex_unlock(&uld_graph_lock);
        if (seen)
            continue;
        struct uld_thread_snap *pair[2] = {a, b};
        collect_stacks(pair, 2);
        uld_mutex_lock(&uld_graph_lock);
        report_hang(a, b, l, w, now);
        uld_mutex_unlock(&uld_graph_lock);
        uld_report_flush();
    }
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    uld_self = ULD_THREAD_DEAD; /* invisible: its own calls are not validated */
    uint64_t limit = (uint64_t)uld_config.watchdog * 1000000000ull;
    struct timespec period = {uld_config.watchdog / 2, (uld_config.watchdog % 2) * 500000000L};
    struct uld_thread_snap *cycle[WD_MAX_THREADS];
    for (;;) {
        nanosleep(&period, NULL);
        uint64_t now = uld_now_ns();
        int n = uld_threads_snapshot(snaps, WD_MAX_THREADS);
        int len = find_cycle_in(snaps, n, now - limit, cycle);
        if (len > 0) {
            collect_stacks(cycle, len);
            report_deadlock(cycle, len, now);
        }
        find_hangs(snaps, n, now - limit, now);
    }
    return NULL;
}

void uld_watchdog_start(void)
{
    if (uld_config.watchdog <= 0 || !uld_platform.spawn_thread)
        return;
    uld_watchdog_on = 1;
    if (uld_platform.spawn_thread(watchdog_main, NULL) != 0) {
        uld_warn("cannot start the watchdog thread; watchdog is off");
        uld_watchdog_on = 0;
    }
}

/* ---- the kill-time report ---------------------------------------------- */

static struct uld_thread_snap kill_snaps[WD_MAX_THREADS];

/* How long the kill-time report waits for graph_lock: the signal may have
 * interrupted a thread that holds it (not this one: it is re-entrant). */
#define KILL_LOCK_WAIT_MS 200

/*
 * Which threads are blocked: those that said so (waits; lock calls on the
 * full path), and those whose newest held entry another thread holds too
 * (a fast-path acquisition pushes its entry before the real call blocks).
 */
static int mark_blocked(struct uld_thread_snap *v, int n)
{
    int nblocked = 0;
    for (int i = 0; i < n; i++) {
        struct uld_thread_snap *s = &v[i];
        if (!s->blocked_on && s->top && !(s->top_mode & ULD_MODE_READ)) {
            struct uld_thread_snap *h = holder_in(v, s->top, s, n);
            if (h) {
                s->blocked_on = s->top;
                s->blocked_ip = s->top_ip;
                if (s->nheld && s->held[s->nheld - 1] == s->top)
                    s->nheld--; /* not held: waited for */
            }
        }
        s->blocked_since = 0;
        nblocked += s->blocked_on != 0;
    }
    return nblocked;
}

static void kill_add_thread(struct uld_report *r, struct uld_thread_snap *s, int n)
{
    struct uld_lock *w = uld_lock_lookup(s->blocked_on);
    if (!w || r->nsteps >= ULD_R_MAX_LOCKS)
        return;
    int wi = uld_report_add_lock(r, w, 0);
    int from = wi;
    for (int k = 0; k < s->nheld && r->nheld < ULD_R_MAX_HELD; k++) {
        struct uld_lock *l = snap_held_lock(s, k, 0);
        int known = r->nlocks;
        int idx = l ? uld_report_add_lock(r, l, 0) : -1;
        if (idx < 0)
            continue;
        if (idx >= known)
            r->locks[idx].context = 1;
        from = idx;
        r->held[r->nheld++] = (struct uld_rheld){idx, s->held_mode[k], s->held_ip[k], s->serial};
    }
    (void)n;
    r->steps[r->nsteps++] = (struct uld_rstep){
        .from = from, .to = wi, .from_ip = s->blocked_ip,
        .stack_id = atomic_load(&s->t->blocked_stack), .tid = s->tid, .serial = s->serial};
}

/* Every blocked thread, what it waits for, and the cycle if any.  Returns
 * 1 if this thread itself is one of them (its held locks are listed there). */
static int kill_blocked_report(int sig, int n)
{
    int self_blocked = 0;
    struct uld_thread_snap *blocked[WD_MAX_THREADS];
    int nb = 0;
    for (int i = 0; i < n; i++) {
        if (!kill_snaps[i].blocked_on)
            continue;
        if (kill_snaps[i].tid != uld_gettid())
            blocked[nb++] = &kill_snaps[i];
        else
            self_blocked = 1;
    }
    collect_stacks(blocked, nb);
    if (!uld_mutex_lock_bounded(&uld_graph_lock, KILL_LOCK_WAIT_MS))
        return self_blocked;
    struct uld_thread_snap *cycle[WD_MAX_THREADS];
    int len = find_cycle_in(kill_snaps, n, UINT64_MAX, cycle);
    struct uld_report *r = uld_report_new(ULD_R_KILLED);
    if (r) {
        int nblocked = 0;
        for (int i = 0; i < n; i++)
            if (kill_snaps[i].blocked_on) {
                kill_add_thread(r, &kill_snaps[i], n);
                nblocked++;
            }
        for (int k = 0; k < r->nsteps; k++) /* waited for: a subject, even if also held */
            r->locks[r->steps[k].to].context = 0;
        const char *name = sigabbrev_np(sig);
        size_t off = (size_t)uld_snprintf(r->detail, sizeof(r->detail),
                                          "SIG%s ends the process; %d thread%s blocked",
                                          name ? name : "?", nblocked, nblocked == 1 ? "" : "s");
        for (int i = 0; i < len && off < sizeof(r->detail); i++)
            off += (size_t)uld_snprintf(r->detail + off, sizeof(r->detail) - off, "%sT%u",
                                        i ? " -> " : "; blocked on each other: ",
                                        cycle[i]->serial);
        if (len && off < sizeof(r->detail))
            uld_snprintf(r->detail + off, sizeof(r->detail) - off, " -> T%u", cycle[0]->serial);
        r->signo = sig;
        r->serial = len ? cycle[0]->serial : r->steps[0].serial;
        r->tid = len ? cycle[0]->tid : r->steps[0].tid;
        r->target = -1;
        uld_report_submit(r, uld_chain_mix(ULD_R_KILLED, (uint32_t)sig, 0));
    }
    uld_mutex_unlock(&uld_graph_lock);
    return self_blocked;
}

/*
 * The thread that the fatal signal ends the process from holds locks:
 * exit-holding, as for exit() from it.  Only this thread: the others are
 * cut off wherever they are (the blocked ones are in blocked-at-kill).  Not
 * when the signal interrupted the validator itself (its state may be half
 * updated).
 */
static int kill_exit_holding(int sig, unsigned was_busy)
{
    struct uld_thread *t = uld_self;
    if (was_busy || !t || t == ULD_THREAD_DEAD || t->depth == 0 || t->disabled ||
        !uld_mutex_lock_bounded(&uld_graph_lock, KILL_LOCK_WAIT_MS))
        return 0;
    uld_check_exit_holding_signal(t, sig);
    uld_mutex_unlock(&uld_graph_lock);
    return 1;
}

/*
 * A fatal signal: queue the reports of blocked threads (a deadlock that is
 * happening) or of locks held at exit.  1 if something was queued.
 */
int uld_check_kill(int sig, int from_self, unsigned was_busy)
{
    int n = uld_threads_snapshot(kill_snaps, WD_MAX_THREADS);
    int self_blocked = 0, nblocked = mark_blocked(kill_snaps, n);
    if (nblocked) /* symbolised, as ever: see docs/design.md for the risk */
        self_blocked = kill_blocked_report(sig, n);
    else if (!from_self) /* it may have interrupted malloc: nothing that allocates */
        atomic_store(&uld_symbolize_raw, 1);
    int queued = nblocked > 0;
    if (!self_blocked)
        queued |= kill_exit_holding(sig, was_busy);
    return queued;
}

/* ---- the exit-time check ----------------------------------------------- */

static struct uld_thread_snap exit_snaps[WD_MAX_THREADS];

struct exit_blocked {
    uint32_t serial, seq;
    uintptr_t on;
};

/* Snapshot the other threads into exit_snaps; keep as blocked only those
 * blocked the same way as in `before` (all of them when before is NULL),
 * which gets the blocked ones.  Returns how many are blocked. */
static int exit_blocked_now(struct exit_blocked *before, int nbefore, struct exit_blocked *now_out,
                            int *n_out)
{
    int n = uld_threads_snapshot(exit_snaps, WD_MAX_THREADS), self = uld_gettid();
    for (int i = 0; i < n; i++)
        if (exit_snaps[i].tid == self) /* the exiting thread is running */
            exit_snaps[i].blocked_on = exit_snaps[i].top = 0;
    mark_blocked(exit_snaps, n);
    int nb = 0;
    for (int i = 0; i < n; i++) {
        struct uld_thread_snap *s = &exit_snaps[i];
        if (!s->blocked_on)
            continue;
        int same = !before;
        for (int k = 0; k < nbefore && !same; k++)
            same = before[k].serial == s->serial && before[k].on == s->blocked_on &&
                   before[k].seq == s->blocked_seq;
        if (!same) {
            s->blocked_on = 0;
            continue;
        }
        if (now_out)
            now_out[nb] = (struct exit_blocked){s->serial, s->blocked_seq, s->blocked_on};
        nb++;
    }
    *n_out = n;
    return nb;
}

/* Is anything in exit_snaps stuck: a cycle, or a thread blocked on a lock
 * held by a thread blocked in a wait (find_hangs has the last word)? */
static int exit_stuck(int n, struct uld_thread_snap **cycle, int *len)
{
    *len = find_cycle_in(exit_snaps, n, UINT64_MAX, cycle);
    if (*len)
        return 1;
    for (int i = 0; i < n; i++)
        if (blocked_holder(exit_snaps, n, &exit_snaps[i], UINT64_MAX))
            return 1;
    return 0;
}

void uld_check_exit_hang(void)
{
    static struct exit_blocked first[WD_MAX_THREADS];
    struct uld_thread_snap *cycle[WD_MAX_THREADS];
    int n, len;
    int nfirst = exit_blocked_now(NULL, 0, first, &n);
    if (!nfirst || !exit_stuck(n, cycle, &len))
        return;
    /* contention of the moment is over by then; a hang is not */
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    if (!exit_blocked_now(first, nfirst, NULL, &n) || !exit_stuck(n, cycle, &len))
        return;
    if (len) {
        collect_stacks(cycle, len);
        report_deadlock(cycle, len, 0);
    }
    find_hangs(exit_snaps, n, UINT64_MAX, 0);
}
