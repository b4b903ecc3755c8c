/*
 * report.c - report life cycle (snapshot, deduplication, queue, emission)
 * and the human-readable layout, modelled on the kernel's lockdep reports.
 *
 * Snapshots are made and deduplicated under graph_lock.  Emission takes
 * report_lock with a trylock: a thread that finds it busy leaves its report
 * on the pending stack and the holder prints it before letting go, so no
 * thread ever waits for another one's report (which might be waiting on a
 * lock this thread holds).  Output is written with write(2) from a buffer of
 * our own: no stdio, no locale.
 */
#include "report.h"

#include "chain.h"
#include "config.h"
#include "graph.h"
#include "hooks.h"
#include "lock.h"
#include "stack.h"
#include "thread.h"
#include "uthash_arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define EMIT_BUF_SIZE (4u << 20)

struct seen_key {
    uint64_t key;
    UT_hash_handle hh;
};

static struct uld_mutex report_lock;
static struct uld_report *_Atomic pending;
static struct seen_key *seen;
static _Atomic long nerrors, nwarnings;
static int log_fd = 2, json_fd = -1;
static char *emit_buf;
static const char *limits_reported[8];
static _Atomic int summary_printed;

static const char *const kind_names[ULD_R_KINDS] = {
    [ULD_R_LOCK_ORDER] = "lock-order-inversion",
    [ULD_R_CLASS_ORDER] = "class-order-inversion",
    [ULD_R_SELF_DEADLOCK] = "self-deadlock",
    [ULD_R_UNLOCK_NOT_HELD] = "unlock-not-held",
    [ULD_R_UNLOCK_NOT_OWNER] = "unlock-not-owner",
    [ULD_R_DESTROY_HELD] = "destroy-held",
    [ULD_R_EXIT_HOLDING] = "exit-holding",
    [ULD_R_ASSERT_NOT_HELD] = "assert-not-held",
    [ULD_R_LIMIT] = "limit-reached",
    [ULD_R_WAIT_FOR] = "wait-for-cycle",
    [ULD_R_COND_MISMATCH] = "cond-mutex-mismatch",
    [ULD_R_SIGNAL_UNSAFE] = "signal-unsafe-lock",
    [ULD_R_FORK_HOLDING] = "fork-holding",
    [ULD_R_DEADLOCK] = "deadlock-detected",
};

static const char *const headlines[ULD_R_KINDS] = {
    [ULD_R_LOCK_ORDER] = "possible circular locking dependency detected",
    [ULD_R_CLASS_ORDER] = "possible circular locking dependency between lock classes",
    [ULD_R_SELF_DEADLOCK] = "possible recursive locking detected",
    [ULD_R_UNLOCK_NOT_HELD] = "bad unlock balance detected",
    [ULD_R_UNLOCK_NOT_OWNER] = "lock released by a thread that does not own it",
    [ULD_R_DESTROY_HELD] = "held lock destroyed",
    [ULD_R_EXIT_HOLDING] = "thread exiting with locks held",
    [ULD_R_ASSERT_NOT_HELD] = "lock assertion failed: lock not held",
    [ULD_R_LIMIT] = "internal table full",
    [ULD_R_WAIT_FOR] = "possible deadlock: a wait that its waker cannot reach",
    [ULD_R_COND_MISMATCH] = "condition variable used with the wrong mutex",
    [ULD_R_SIGNAL_UNSAFE] = "lock taken both in a signal handler and where the signal can interrupt it",
    [ULD_R_FORK_HOLDING] = "lock held by another thread at fork() used in the child",
    [ULD_R_DEADLOCK] = "deadlock: threads blocked on each other",
};

const char *uld_report_kind_name(int kind)
{
    return kind >= 0 && kind < ULD_R_KINDS ? kind_names[kind] : "unknown";
}

int uld_report_kind_is_error(int kind)
{
    return kind != ULD_R_CLASS_ORDER && kind != ULD_R_LIMIT;
}

const char *uld_report_message(const struct uld_report *r)
{
    return headlines[r->kind];
}

long uld_report_errors(void)
{
    return atomic_load(&nerrors);
}

long uld_report_warnings(void)
{
    return atomic_load(&nwarnings);
}

/* ---- outputs ----------------------------------------------------------- */

static int open_output(const char *option, const char *path)
{
    char expanded[ULD_PATH_MAX + 32];
    uld_config_expand_path(path, expanded, sizeof(expanded));
    int fd = open(expanded, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        uld_warn("cannot open %s '%s' (%s); %s", option, expanded, strerror(errno),
                 !strcmp(option, "log_path") ? "reports go to stderr" : "no JSON output");
    return fd;
}

int uld_report_open_outputs(void)
{
    if (uld_config.log_path[0]) {
        int fd = open_output("log_path", uld_config.log_path);
        if (fd >= 0)
            log_fd = fd;
    }
    if (uld_config.json_path[0])
        json_fd = open_output("json_path", uld_config.json_path);
    return 1;
}

/* ---- snapshots (graph_lock held) --------------------------------------- */

struct uld_report *uld_report_new(int kind)
{
    struct uld_report *r = uld_alloc(sizeof(*r));
    if (r) {
        r->kind = kind;
        r->target = -1;
    }
    return r;
}

static void copy_name(char *dst, size_t n, const char *src)
{
    if (src)
        uld_snprintf(dst, n, "%s", src);
}

int uld_report_add_lock(struct uld_report *r, struct uld_lock *l, unsigned subclass)
{
    for (int i = 0; i < r->nlocks; i++)
        if (r->locks[i].id == l->id && r->locks[i].subclass == subclass)
            return i;
    if (r->nlocks >= ULD_R_MAX_LOCKS)
        return -1;
    struct uld_class *cls = uld_lock_class(l, subclass);
    struct uld_rlock *rl = &r->locks[r->nlocks];
    rl->id = l->id;
    rl->class_id = cls->node.id;
    rl->addr = atomic_load(&l->addr);
    rl->site_ip = l->site_ip;
    rl->class_key = cls->k.key;
    rl->class_kind = (uint8_t)cls->k.kind;
    rl->ordinal = l->ordinal;
    rl->type = l->type;
    rl->flags = l->flags;
    rl->site_kind = l->site_kind;
    rl->subclass = (uint8_t)subclass;
    rl->is_static = l->is_static;
    copy_name(rl->name, sizeof(rl->name), l->name);
    copy_name(rl->class_name, sizeof(rl->class_name), cls->base->name);
    return r->nlocks++;
}

/* A class whose recorded lock is gone: named by the class alone. */
int uld_report_add_class(struct uld_report *r, struct uld_class *cls)
{
    for (int i = 0; i < r->nlocks; i++)
        if (r->locks[i].id == 0 && r->locks[i].class_id == cls->node.id)
            return i;
    if (r->nlocks >= ULD_R_MAX_LOCKS)
        return -1;
    struct uld_rlock *rl = &r->locks[r->nlocks];
    rl->class_id = cls->node.id;
    rl->class_key = cls->k.key;
    rl->class_kind = (uint8_t)cls->k.kind;
    rl->site_kind = (uint8_t)cls->k.kind;
    rl->site_ip = cls->k.kind == ULD_SITE_STATIC ? 0 : cls->k.key;
    rl->type = cls->type;
    rl->subclass = (uint8_t)cls->k.subclass;
    copy_name(rl->class_name, sizeof(rl->class_name), cls->base->name);
    return r->nlocks++;
}

int uld_report_seen(uint64_t key)
{
    struct seen_key *s;
    HASH_FIND(hh, seen, &key, sizeof(key), s);
    return s != NULL;
}

void uld_report_submit(struct uld_report *r, uint64_t key)
{
    struct seen_key *s = uld_alloc(sizeof(*s));
    if (s) {
        s->key = key;
        HASH_ADD(hh, seen, key, sizeof(s->key), s);
    }
    atomic_fetch_add(uld_report_kind_is_error(r->kind) ? &nerrors : &nwarnings, 1);
    struct uld_report *head = atomic_load(&pending);
    do
        r->next = head;
    while (!atomic_compare_exchange_weak(&pending, &head, r));
}

void uld_report_limit(const char *table, long limit, const char *option)
{
    size_t i;
    for (i = 0; i < ULD_ARRAY_SIZE(limits_reported) && limits_reported[i]; i++)
        if (!strcmp(limits_reported[i], table))
            return;
    if (i < ULD_ARRAY_SIZE(limits_reported))
        limits_reported[i] = table;
    struct uld_report *r = uld_report_new(ULD_R_LIMIT);
    if (!r)
        return;
    uld_snprintf(r->detail, sizeof(r->detail),
                 "the %s table is full (%ld entries); new ones are not recorded%s%s", table,
                 limit, option ? ", raise " : "", option ? option : "");
    uld_report_submit(r, (uint64_t)(uintptr_t)table);
}

/* ---- naming ------------------------------------------------------------- */

const char *uld_lock_type_name(int type)
{
    static const char *const names[] = {"mutex", "rwlock", "spinlock", "lock", "condvar",
                                        "semaphore"};
    return type >= 0 && type < (int)ULD_ARRAY_SIZE(names) ? names[type] : "lock";
}

const char *uld_site_kind_name(int kind)
{
    static const char *const names[] = {"static", "init", "first-use", "annotation"};
    return kind >= 0 && kind < 4 ? names[kind] : "unknown";
}

/* "function:line", else "function+0xOFF", else "module+0xOFF", else the address. */
static void site_name(uintptr_t ip, char *out, size_t n)
{
    struct uld_frame_info fi;
    uld_symbolize(ip, 1, &fi);
    if (fi.function && fi.line)
        uld_snprintf(out, n, "%s:%d", fi.function, fi.line);
    else if (fi.function)
        uld_snprintf(out, n, "%s+0x%lx", fi.function, (unsigned long)fi.fn_offset);
    else if (fi.module)
        uld_snprintf(out, n, "%s+0x%lx", strrchr(fi.module, '/') ? strrchr(fi.module, '/') + 1
                                                                  : fi.module,
                     (unsigned long)fi.module_offset);
    else
        uld_snprintf(out, n, "%p", (void *)ip);
}

static int static_name(uintptr_t addr, char *out, size_t n)
{
    const char *sym;
    uintptr_t off;
    if (!uld_symbolize_data(addr, &sym, &off))
        return 0;
    if (off)
        uld_snprintf(out, n, "%s+0x%lx", sym, (unsigned long)off);
    else
        uld_snprintf(out, n, "%s", sym);
    return 1;
}

static void class_base_name(const struct uld_rlock *l, char *out, size_t n)
{
    if (l->class_name[0])
        uld_snprintf(out, n, "%s", l->class_name);
    else if (l->class_kind == ULD_SITE_STATIC && static_name(l->class_key, out, n))
        return;
    else if (l->class_kind == ULD_SITE_STATIC)
        uld_snprintf(out, n, "%p", (void *)l->class_key);
    else
        site_name(l->class_key, out, n);
}

void uld_rlock_class_name(const struct uld_rlock *l, char *out, size_t n)
{
    class_base_name(l, out, n);
    if (l->subclass) {
        size_t len = strlen(out);
        uld_snprintf(out + len, n - len, "/%u", (unsigned)l->subclass);
    }
}

void uld_rlock_name(const struct uld_rlock *l, char *out, size_t n)
{
    if (l->name[0]) {
        uld_snprintf(out, n, "%s", l->name);
    } else if (!(l->is_static && static_name(l->addr, out, n))) {
        class_base_name(l, out, n);
        if (l->ordinal) {
            size_t len = strlen(out);
            uld_snprintf(out + len, n - len, "#%u", l->ordinal);
        }
    }
    if (l->subclass) {
        size_t len = strlen(out);
        uld_snprintf(out + len, n - len, "/%u", (unsigned)l->subclass);
    }
}

/* ---- human layout -------------------------------------------------------- */

static void put_frame(struct uld_buf *b, uintptr_t addr, int is_return)
{
    struct uld_frame_info fi;
    uld_symbolize(addr, is_return, &fi);
    if (fi.function)
        uld_buf_printf(b, "%s+0x%lx", fi.function, (unsigned long)fi.fn_offset);
    else
        uld_buf_printf(b, "%p", (void *)addr);
    if (fi.file)
        uld_buf_printf(b, " (%s:%d)", fi.file, fi.line);
    else if (fi.module)
        uld_buf_printf(b, " (%s+0x%lx)", fi.module, (unsigned long)fi.module_offset);
}

static void put_stack(struct uld_buf *b, uint32_t stack_id, const char *indent)
{
    const uintptr_t *frames;
    int n = uld_stack_frames(stack_id, &frames);
    if (n == 0) {
        uld_buf_printf(b, "%s(no stack trace recorded)\n", indent);
        return;
    }
    for (int i = 0; i < n; i++) {
        uld_buf_printf(b, "%s#%-2d %p in ", indent, i, (void *)frames[i]);
        put_frame(b, frames[i], 1);
        uld_buf_putc(b, '\n');
    }
}

static void put_name(struct uld_buf *b, const struct uld_report *r, int idx)
{
    char name[128];
    if (idx < 0 || idx >= r->nlocks) {
        uld_buf_puts(b, "(unknown lock)");
        return;
    }
    uld_rlock_name(&r->locks[idx], name, sizeof(name));
    uld_buf_puts(b, name);
}

static const char *mode_name(const struct uld_rlock *l, unsigned mode)
{
    if (l->type != ULD_TYPE_RWLOCK && !(mode & ULD_MODE_READ))
        return "";
    return (mode & ULD_MODE_READ) ? " (read)" : " (write)";
}

static void put_lock_line(struct uld_buf *b, const struct uld_report *r, int idx)
{
    const struct uld_rlock *l = &r->locks[idx];
    put_name(b, r, idx);
    uld_buf_printf(b, " [%s %p]", uld_lock_type_name(l->type), (void *)l->addr);
}

static void put_thread(struct uld_buf *b, int serial, int tid, const char *name)
{
    uld_buf_printf(b, "thread T%d", serial);
    if (name && name[0])
        uld_buf_printf(b, " \"%s\"", name);
    uld_buf_printf(b, " (tid %d)", tid);
}

static void put_held(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_printf(b, "\nlocks held by T%u:", r->serial);
    if (r->nheld == 0)
        uld_buf_puts(b, " none\n");
    else
        uld_buf_putc(b, '\n');
    for (int i = 0; i < r->nheld; i++) {
        const struct uld_rheld *h = &r->held[i];
        uld_buf_printf(b, "  #%d: ", i);
        put_lock_line(b, r, h->lock);
        uld_buf_puts(b, mode_name(&r->locks[h->lock], h->mode));
        uld_buf_puts(b, ", acquired at ");
        put_frame(b, h->ip, 1);
        uld_buf_putc(b, '\n');
    }
}

static void put_legend(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_puts(b, "\nlocks in this report:\n");
    for (int i = 0; i < r->nlocks; i++) {
        const struct uld_rlock *l = &r->locks[i];
        char cname[128];
        uld_rlock_class_name(l, cname, sizeof(cname));
        uld_buf_puts(b, "  ");
        put_name(b, r, i);
        if (l->id)
            uld_buf_printf(b, ": %s at %p, class %s", uld_lock_type_name(l->type),
                           (void *)l->addr, cname);
        else
            uld_buf_printf(b, ": a %s of class %s (that lock no longer exists)",
                           uld_lock_type_name(l->type), cname);
        if (l->site_kind == ULD_SITE_INIT || l->site_kind == ULD_SITE_FIRST_USE) {
            uld_buf_puts(b, l->site_kind == ULD_SITE_INIT ? ", initialised at "
                                                          : ", first used at ");
            put_frame(b, l->site_ip, 1);
        } else if (l->site_kind == ULD_SITE_STATIC) {
            uld_buf_puts(b, ", static");
        }
        uld_buf_putc(b, '\n');
    }
}

/* Serials of the threads a report mentions, each once; returns the count. */
int uld_report_threads(const struct uld_report *r, uint32_t *out, int max)
{
    int n = 0;
    for (int i = -1; i < r->nsteps && n < max; i++) {
        uint32_t s = i < 0 ? r->serial : r->steps[i].serial;
        int dup = !s;
        for (int j = 0; j < n; j++)
            dup |= out[j] == s;
        if (!dup)
            out[n++] = s;
    }
    return n;
}

static void put_threads(struct uld_buf *b, const struct uld_report *r)
{
    uint32_t serials[ULD_R_MAX_LOCKS + 1];
    int n = uld_report_threads(r, serials, ULD_R_MAX_LOCKS + 1);
    uld_buf_puts(b, "\nthreads in this report:\n");
    for (int i = 0; i < n; i++) {
        struct uld_thread_info ti;
        if (!uld_thread_info(serials[i], &ti))
            continue;
        uld_buf_puts(b, "  ");
        put_thread(b, (int)serials[i], ti.tid, ti.name);
        if (!ti.created_stack) {
            uld_buf_puts(b, ": the main thread, or created before ulockdep started\n");
            continue;
        }
        uld_buf_printf(b, ", created by T%u at:\n", ti.parent_serial);
        put_stack(b, ti.created_stack, "     ");
    }
}

enum step_kind { STEP_LOCK, STEP_WAIT, STEP_WAKE };

/* lock -> lock, lock -> wait object (a wait), wait object -> lock (a wake-up). */
static enum step_kind step_kind(const struct uld_report *r, const struct uld_rstep *s)
{
    if (uld_is_wait_type(r->locks[s->to].type))
        return STEP_WAIT;
    return uld_is_wait_type(r->locks[s->from].type) ? STEP_WAKE : STEP_LOCK;
}

static void put_step(struct uld_buf *b, const struct uld_report *r, int k, int number)
{
    const struct uld_rstep *s = &r->steps[k];
    enum step_kind kind = step_kind(r, s);
    uld_buf_printf(b, "\n-> #%d: ", number);
    put_name(b, r, s->from);
    uld_buf_puts(b, " -> ");
    put_name(b, r, s->to);
    uld_buf_printf(b, "%s, in ", k == 0 ? ", now" : ", first seen");
    put_thread(b, (int)s->serial, s->tid, k == 0 ? r->thread_name : NULL);
    uld_buf_puts(b, ":\n       ");
    if (kind == STEP_WAKE) {
        put_name(b, r, s->from);
        uld_buf_puts(b, " has only ever been woken with ");
        put_name(b, r, s->to);
        uld_buf_puts(b, " held;\n       ");
        put_name(b, r, s->to);
        uld_buf_puts(b, " was acquired at ");
        put_frame(b, s->from_ip, 1);
        uld_buf_puts(b, "\n       ");
        put_name(b, r, s->from);
        uld_buf_puts(b, " was then woken at:\n");
    } else {
        put_name(b, r, s->from);
        uld_buf_puts(b, " was acquired at ");
        put_frame(b, s->from_ip, 1);
        uld_buf_puts(b, "\n       ");
        put_name(b, r, s->to);
        uld_buf_puts(b, kind == STEP_WAIT ? " was then waited on at:\n"
                                          : " was then acquired at:\n");
    }
    put_stack(b, s->stack_id, "         ");
}

/* Step k of the scenario: the recorded steps first, the one happening now last. */
static const struct uld_rstep *scenario_step(const struct uld_report *r, int k)
{
    return &r->steps[(k + 1) % r->nsteps];
}

static void put_column(struct uld_buf *b, int col, const char *fmt, const char *name)
{
    uld_buf_printf(b, "%*s", 2 + 26 * col, "");
    uld_buf_printf(b, fmt, name);
    uld_buf_putc(b, '\n');
}

/* What thread k does in the scenario: take what it holds, then block. */
static void put_scenario_action(struct uld_buf *b, const struct uld_report *r, int k, int pass)
{
    const struct uld_rstep *s = scenario_step(r, k);
    char from[128], to[128];
    uld_rlock_name(&r->locks[s->from], from, sizeof(from));
    uld_rlock_name(&r->locks[s->to], to, sizeof(to));
    switch (step_kind(r, s)) {
    case STEP_LOCK:
        put_column(b, k, "lock(%s);", pass ? to : from);
        break;
    case STEP_WAIT:
        put_column(b, k, pass ? "wait(%s);" : "lock(%s);", pass ? to : from);
        break;
    case STEP_WAKE: /* holds nothing yet: needs `to` before it can wake `from` */
        if (pass) {
            put_column(b, k, "lock(%s);", to);
            put_column(b, k, "wake(%s);", from);
        }
        break;
    }
}

/* The kernel's "possible unsafe locking scenario", one column per thread. */
static void put_scenario(struct uld_buf *b, const struct uld_report *r)
{
    int n = r->nsteps;
    uld_buf_puts(b, "\n possible unsafe locking scenario:\n\n");
    if (n > 4) { /* too wide for columns */
        for (int k = 0; k < n; k++) {
            const struct uld_rstep *s = scenario_step(r, k);
            uld_buf_printf(b, "  thread %d holds ", k + 1);
            put_name(b, r, s->from);
            uld_buf_puts(b, " and waits for ");
            put_name(b, r, s->to);
            uld_buf_putc(b, '\n');
        }
    } else {
        for (int k = 0; k < n; k++)
            uld_buf_printf(b, "%*sthread %d%*s", k ? 0 : 2, "", k + 1, k + 1 < n ? 18 : 0, "");
        uld_buf_putc(b, '\n');
        for (int k = 0; k < n; k++)
            uld_buf_printf(b, "%*s--------%*s", k ? 0 : 2, "", k + 1 < n ? 18 : 0, "");
        uld_buf_putc(b, '\n');
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < n; k++)
                put_scenario_action(b, r, k, pass);
    }
    uld_buf_puts(b, "\n *** DEADLOCK ***\n");
}

static void put_order_report(struct uld_buf *b, const struct uld_report *r)
{
    const struct uld_rstep *now = &r->steps[0];
    enum step_kind kind = step_kind(r, now);
    int subject = kind == STEP_WAKE ? now->from : now->to;
    int held = kind == STEP_WAKE ? now->to : now->from;
    put_thread(b, (int)r->serial, r->tid, r->thread_name);
    uld_buf_puts(b, kind == STEP_WAIT   ? " is about to wait on:\n    "
                    : kind == STEP_WAKE ? " wakes up waiters of:\n    "
                                        : " is trying to acquire:\n    ");
    put_lock_line(b, r, subject);
    if (kind == STEP_LOCK)
        uld_buf_puts(b, mode_name(&r->locks[subject], r->target_mode));
    uld_buf_puts(b, "\n  at ");
    put_frame(b, r->ip, 1);
    uld_buf_puts(b, kind == STEP_WAKE ? "\n\nwhile it holds:\n    " : "\n\nbut it already holds:\n    ");
    put_lock_line(b, r, held);
    uld_buf_puts(b, ", acquired at ");
    put_frame(b, now->from_ip, 1);
    if (r->kind == ULD_R_CLASS_ORDER)
        uld_buf_puts(b, "\n\nand locks of these classes were already taken in the other "
                        "order.\nNo cycle exists between these very locks yet: it closes "
                        "if two of them are the same object.\n");
    else if (kind == STEP_WAIT)
        uld_buf_puts(b, "\n\nand whoever wakes this wait needs that lock first.\n");
    else if (kind == STEP_WAKE)
        uld_buf_puts(b, "\n\nand a thread waits for this wake-up while holding that lock.\n");
    else
        uld_buf_puts(b, "\n\nwhich lock already depends on the new lock.\n");
    uld_buf_puts(b, "\nthe dependency chain (each line: the second lock taken, waited on or "
                    "woken\nwhile the first was held):\n");
    for (int k = 1; k < r->nsteps; k++)
        put_step(b, r, k, r->nsteps - k);
    put_step(b, r, 0, 0);
    put_scenario(b, r);
}

static void put_target_report(struct uld_buf *b, const struct uld_report *r, const char *verb)
{
    put_thread(b, (int)r->serial, r->tid, r->thread_name);
    uld_buf_printf(b, " %s:\n    ", verb);
    if (r->target >= 0)
        put_lock_line(b, r, r->target);
    else
        uld_buf_puts(b, "(unknown lock)");
    uld_buf_puts(b, "\n  at ");
    put_frame(b, r->ip, 1);
    uld_buf_printf(b, "\n\nproblem: %s\n", r->detail);
    if (r->stack_id) {
        uld_buf_puts(b, "\nstack:\n");
        put_stack(b, r->stack_id, "   ");
    }
}

static void put_signal_report(struct uld_buf *b, const struct uld_report *r)
{
    const char *sig = sigabbrev_np(r->signo);
    put_target_report(b, r, "takes");
    for (int k = 0; k < r->nsteps; k++) {
        const struct uld_rstep *s = &r->steps[k];
        uld_buf_printf(b, "\n-> %s SIG%s, in ",
                       k == 0 ? "taken inside a handler for" : "taken where it can be interrupted by",
                       sig ? sig : "?");
        put_thread(b, (int)s->serial, s->tid, NULL);
        uld_buf_puts(b, ":\n");
        put_stack(b, s->stack_id, "     ");
    }
    char name[128];
    uld_rlock_name(&r->locks[r->target], name, sizeof(name));
    uld_buf_printf(b, "\n possible unsafe locking scenario:\n\n  lock(%s);\n  <SIG%s arrives>\n"
                      "    lock(%s);   /* in the handler, on the same thread */\n\n"
                      " *** DEADLOCK ***\n",
                   name, sig ? sig : "?", name);
}

static void put_deadlock_report(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_printf(b, "%s:\n", r->detail);
    for (int k = 0; k < r->nsteps; k++) {
        const struct uld_rstep *s = &r->steps[k];
        struct uld_thread_info ti;
        uld_buf_puts(b, "\n  ");
        put_thread(b, (int)s->serial, s->tid, uld_thread_info(s->serial, &ti) ? ti.name : NULL);
        uld_buf_puts(b, " holds ");
        put_name(b, r, s->from);
        uld_buf_puts(b, " (acquired at ");
        put_frame(b, s->from_ip, 1);
        uld_buf_puts(b, ")\n    and waits for ");
        put_lock_line(b, r, s->to);
        uld_buf_printf(b, ", held by T%u, at:\n", r->steps[(k + 1) % r->nsteps].serial);
        put_stack(b, s->stack_id, "      ");
    }
    uld_buf_puts(b, "\n *** DEADLOCK ***\n");
}

static void emit_human(const struct uld_report *r)
{
    struct uld_buf b;
    uld_buf_init(&b, emit_buf, EMIT_BUF_SIZE, log_fd);
    const char *sev = uld_report_kind_is_error(r->kind) ? "ERROR" : "WARNING";
    if (r->kind == ULD_R_LIMIT || uld_config.verbosity == 0) {
        uld_buf_printf(&b, "ulockdep: %s: %s (%s)", sev, r->kind == ULD_R_LIMIT ? r->detail
                                                                                 : headlines[r->kind],
                       kind_names[r->kind]);
        if (r->kind != ULD_R_LIMIT && r->target >= 0) {
            uld_buf_puts(&b, ": ");
            put_name(&b, r, r->target);
        }
        uld_buf_putc(&b, '\n');
        uld_buf_flush(&b);
        return;
    }
    uld_buf_puts(&b, "\n==================================================================\n");
    uld_buf_printf(&b, "ulockdep %s: %s [%s]\n", sev, headlines[r->kind], kind_names[r->kind]);
    uld_buf_printf(&b, "------------------------------------------------------------------\n"
                       "pid %d, ",
                   (int)getpid());
    switch (r->kind) {
    case ULD_R_LOCK_ORDER:
    case ULD_R_CLASS_ORDER:
    case ULD_R_WAIT_FOR:
        put_order_report(&b, r);
        break;
    case ULD_R_SELF_DEADLOCK:
        put_target_report(&b, r, "is trying to acquire a lock it already holds");
        uld_buf_puts(&b, "\n *** DEADLOCK ***\n");
        break;
    case ULD_R_SIGNAL_UNSAFE:
        put_signal_report(&b, r);
        break;
    case ULD_R_DEADLOCK:
        put_deadlock_report(&b, r);
        break;
    case ULD_R_EXIT_HOLDING:
        put_thread(&b, (int)r->serial, r->tid, r->thread_name);
        uld_buf_printf(&b, " is exiting: %s\n", r->detail);
        break;
    default:
        put_target_report(&b, r, r->kind == ULD_R_DESTROY_HELD ? "destroys" : "releases");
        break;
    }
    if (r->kind != ULD_R_DEADLOCK) /* there every thread's locks are shown already */
        put_held(&b, r);
    put_legend(&b, r);
    if (r->kind != ULD_R_LIMIT)
        put_threads(&b, r);
    uld_buf_puts(&b, "==================================================================\n");
    uld_buf_flush(&b);
}

static void emit_json(const struct uld_report *r)
{
    struct uld_buf b;
    uld_buf_init(&b, emit_buf, EMIT_BUF_SIZE, -1);
    uld_json_emit(&b, r);
    uld_buf_putc(&b, '\n');
    if (b.len + 1 < b.cap) /* a truncated line would not parse: drop it */
        uld_write_all(json_fd, b.data, b.len);
}

static void emit(const struct uld_report *r)
{
    emit_human(r);
    if (json_fd >= 0)
        emit_json(r);
    if (uld_config.halt_on_error && uld_report_kind_is_error(r->kind)) {
        uld_warn("halt_on_error is set: aborting");
        abort();
    }
}

/* ---- queue --------------------------------------------------------------- */

/* Is anything pending that will be followed by a hang (print it now)? */
static int pending_urgent(void)
{
    for (struct uld_report *r = atomic_load(&pending); r; r = r->next)
        if (r->kind == ULD_R_SELF_DEADLOCK)
            return 1;
    return 0;
}

void uld_report_flush(void)
{
    /* A signal handler must not symbolise (libdw allocates): unless the thread
     * is about to hang, leave the reports to the next flush outside a handler. */
    if (uld_in_signal_handler() && !pending_urgent())
        return;
    while (atomic_load(&pending)) {
        if (!uld_mutex_trylock(&report_lock))
            return; /* the holder prints ours before it lets go */
        if (!emit_buf)
            emit_buf = uld_map(EMIT_BUF_SIZE);
        struct uld_report *list = atomic_exchange(&pending, NULL), *fifo = NULL;
        while (list) { /* the pending stack is newest first */
            struct uld_report *next = list->next;
            list->next = fifo;
            fifo = list;
            list = next;
        }
        /* in a signal handler libdw must not run (it allocates): raw addresses */
        uld_symbolize_raw = uld_in_signal_handler();
        while (fifo) {
            struct uld_report *next = fifo->next;
            if (emit_buf)
                emit(fifo);
            uld_free(fifo, sizeof(*fifo));
            fifo = next;
        }
        uld_symbolize_raw = 0;
        uld_mutex_unlock(&report_lock);
    }
}

void uld_report_lock_for_fork(int lock)
{
    if (lock)
        uld_mutex_lock(&report_lock);
    else
        uld_mutex_unlock(&report_lock);
}

/* The child's exit status speaks for the child: count its own reports only. */
void uld_report_after_fork_child(void)
{
    uld_mutex_reset(&report_lock);
    atomic_store(&summary_printed, 0);
    atomic_store(&nerrors, 0);
    atomic_store(&nwarnings, 0);
}

void uld_report_summary(void)
{
    long e = atomic_load(&nerrors), w = atomic_load(&nwarnings);
    if (!uld_config.summary || (e == 0 && w == 0) || atomic_exchange(&summary_printed, 1))
        return;
    char line[256];
    struct uld_buf b;
    uld_buf_init(&b, line, sizeof(line), -1);
    uld_buf_printf(&b, "ulockdep: SUMMARY: %ld error%s, %ld warning%s in pid %d\n", e,
                   e == 1 ? "" : "s", w, w == 1 ? "" : "s", (int)getpid());
    uld_write_all(log_fd, b.data, b.len);
}
