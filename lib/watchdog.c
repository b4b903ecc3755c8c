/*
 * watchdog.c - live deadlock detection (option watchdog=SEC).  Blocking
 * acquisitions publish "blocked on L since T" in their thread state; a
 * background thread looks every SEC/2 seconds for threads blocked for SEC
 * seconds in a cycle (each waits for a lock the next one holds), asks each
 * of them for its stack with a signal, and prints the cycle.  The potential
 * deadlock was reported earlier, when the cycle first closed in the graph;
 * this report says it has now happened.  Off by default: then blocking
 * acquisitions pay one load.
 */
#include "chain.h"
#include "config.h"
#include "core.h"
#include "report.h"
#include "stack.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WD_MAX_THREADS 512
#define WD_STACK_SIGNAL (SIGRTMAX - 1)

int uld_watchdog_on;
struct uld_platform uld_platform;

void uld_set_platform(const struct uld_platform *p)
{
    uld_platform = *p;
}

static struct uld_thread_snap snaps[WD_MAX_THREADS];
static int stack_handler_installed;

void uld_block_begin(const void *lock, uintptr_t ip)
{
    struct uld_thread *t = uld_enter();
    if (!t)
        return;
    t->blocked_since = uld_now_ns();
    t->blocked_ip = ip;
    atomic_store(&t->blocked_stack, 0);
    atomic_store(&t->blocked_on, (uintptr_t)lock);
    uld_leave();
}

void uld_block_end(void)
{
    struct uld_thread *t = uld_self;
    if (t && t != ULD_THREAD_DEAD)
        atomic_store(&t->blocked_on, 0);
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
static struct uld_thread_snap *holder_of(uintptr_t addr, const struct uld_thread_snap *waiter,
                                         int n)
{
    for (int i = 0; i < n; i++) {
        if (&snaps[i] == waiter)
            continue;
        for (int k = 0; k < snaps[i].nheld; k++)
            if (snaps[i].held[k] == addr)
                return &snaps[i];
    }
    return NULL;
}

/* Follow "blocked on a lock held by" from each stuck thread; return a cycle. */
static int find_cycle(int n, uint64_t min_since, struct uld_thread_snap **cycle)
{
    struct uld_thread_snap *next[WD_MAX_THREADS];
    for (int i = 0; i < n; i++) {
        next[i] = NULL;
        if (snaps[i].blocked_on && snaps[i].blocked_since <= min_since)
            next[i] = holder_of(snaps[i].blocked_on, &snaps[i], n);
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
        uld_snprintf(r->detail, sizeof(r->detail),
                     "%d threads blocked on each other for %lu s", n,
                     (unsigned long)((now - s->blocked_since) / 1000000000ull));
        uld_report_submit(r, key);
    }
    uld_mutex_unlock(&uld_graph_lock);
    uld_report_flush();
    if (r && uld_config.watchdog_abort) {
        uld_warn("watchdog_abort is set: aborting to leave a core");
        abort();
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
        int len = find_cycle(n, now - limit, cycle);
        if (len > 0) {
            collect_stacks(cycle, len);
            report_deadlock(cycle, len, now);
        }
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
