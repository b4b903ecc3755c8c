/*
 * report_text.c - the human-readable layout of reports, modelled on the
 * kernel's lockdep output: the header, the acquisition that closed the
 * cycle, the chain with a stack per dependency, the unsafe scenario, the
 * held locks, a legend of locks and threads.  Runs under the report lock.
 */
#include "symbolize.h"
#include "report.h"

#include "model/chain.h"
#include "base/config.h"
#include "model/graph.h"
#include "model/lock.h"
#include "source.h"
#include "model/stack.h"
#include "model/modules.h"
#include "model/thread.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>


/* One entry of an inline chain: "function+0xOFF (file:line)"; an inlined
 * body has no offset of its own.  A frame no symbol names (stripped code, a
 * module unloaded before we could read it) is "??", followed by the address
 * unless a stack line printed it already. */
static void put_entry(struct uld_buf *b, const struct uld_frame_info *fi, uintptr_t addr,
                      int addr_shown)
{
    if (fi->function && fi->inlined)
        uld_buf_puts(b, fi->function);
    else if (fi->function)
        uld_buf_printf(b, "%s+0x%lx", fi->function, (unsigned long)fi->fn_offset);
    else
        uld_buf_puts(b, "??");
    if (fi->file)
        uld_buf_printf(b, " (%s:%d)", fi->file, fi->line);
    else if (fi->module)
        uld_buf_printf(b, " (%s+0x%lx%s)", fi->module, (unsigned long)fi->module_offset,
                       fi->unloaded ? ", module unloaded" : "");
    else if (!addr_shown)
        uld_buf_printf(b, " (%p)", (void *)uld_addr_real(addr));
}

/* An inlined body from a system header (std::mutex::lock, a libc inline):
 * the library's code, not the program's. */
static int system_inline(const struct uld_frame_info *fi)
{
    return fi->inlined && fi->file && !strncmp(fi->file, "/usr/", 5);
}

/* The entries a one-line position shows: the innermost inlined body that is
 * the program's own, if any, then the real function.  Returns the count. */
static int position_entries(uintptr_t addr, int is_return, struct uld_frame_info out[2])
{
    struct uld_frame_info chain[ULD_MAX_INLINE];
    int n = uld_symbolize_inline(addr, is_return, chain, ULD_MAX_INLINE), k = 0;
    for (int i = 0; i < n - 1 && !k; i++)
        if (!system_inline(&chain[i]))
            out[k++] = chain[i];
    out[k++] = chain[n - 1];
    return k;
}

/* A code position on one line: "take (q.c:4) inlined in worker+0x25 (q.c:30)". */
static void put_frame(struct uld_buf *b, uintptr_t addr, int is_return)
{
    struct uld_frame_info e[2];
    int n = position_entries(addr, is_return, e);
    for (int k = 0; k < n; k++) {
        if (k)
            uld_buf_puts(b, " inlined in ");
        put_entry(b, &e[k], addr, 0);
    }
}

/* "\n<indent>| <source line>" for an entry whose source file is readable. */
static void put_entry_source(struct uld_buf *b, const struct uld_frame_info *fi,
                             const char *indent)
{
    char text[160];
    if (fi->file && !system_inline(fi) && uld_source_line(fi->file, fi->line, text, sizeof(text)))
        uld_buf_printf(b, "\n%s| %s", indent, text);
}

/* The source lines of a one-line position. */
static void put_source(struct uld_buf *b, uintptr_t addr, int is_return, const char *indent)
{
    struct uld_frame_info e[2];
    int n = position_entries(addr, is_return, e);
    for (int k = 0; k < n; k++)
        put_entry_source(b, &e[k], indent);
}

/* A stack, each return address expanded into its inline chain (innermost
 * first, numbered like separate frames as the sanitizers do); the first
 * `with_source` addresses also get their source lines. */
static void put_stack_src(struct uld_buf *b, uint32_t stack_id, const char *indent,
                          int with_source)
{
    const uintptr_t *frames;
    int n = uld_stack_frames(stack_id, &frames);
    if (n == 0) {
        uld_buf_printf(b, "%s(no stack trace recorded)\n", indent);
        return;
    }
    char src_indent[32];
    uld_snprintf(src_indent, sizeof(src_indent), "%s      ", indent);
    for (int i = 0, num = 0; i < n; i++) {
        struct uld_frame_info chain[ULD_MAX_INLINE];
        int len = uld_symbolize_inline(frames[i], 1, chain, ULD_MAX_INLINE);
        for (int k = 0; k < len; k++) {
            uld_buf_printf(b, "%s#%-2d %p in ", indent, num++,
                           (void *)uld_addr_real(frames[i]));
            put_entry(b, &chain[k], frames[i], 1);
            if (chain[k].inlined)
                uld_buf_puts(b, " [inlined]");
            if (i < with_source)
                put_entry_source(b, &chain[k], src_indent);
            uld_buf_putc(b, '\n');
        }
    }
}

static void put_stack(struct uld_buf *b, uint32_t stack_id, const char *indent)
{
    put_stack_src(b, stack_id, indent, 0);
}

static void put_name(struct uld_buf *b, const struct uld_report *r, int idx)
{
    char name[ULD_NAME_MAX];
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

/* Live locks of one class made at one site: the legend names them together. */
static int same_origin(const struct uld_rlock *a, const struct uld_rlock *b)
{
    return a->id && b->id && a->class_id == b->class_id && a->type == b->type &&
           a->site_kind == b->site_kind && a->site_ip == b->site_ip &&
           (a->site_kind == ULD_SITE_INIT || a->site_kind == ULD_SITE_FIRST_USE);
}

static void put_site(struct uld_buf *b, const struct uld_rlock *l)
{
    if (l->site_kind == ULD_SITE_INIT || l->site_kind == ULD_SITE_FIRST_USE) {
        uld_buf_puts(b, l->site_kind == ULD_SITE_INIT ? ", initialised at " : ", first used at ");
        uintptr_t site = l->site_kind == ULD_SITE_FIRST_USE && l->class_stack
                             ? uld_class_site_frame(l->class_stack, l->site_ip)
                             : l->site_ip;
        put_frame(b, site, 1);
        put_source(b, site, 1, "      ");
    } else if (l->site_kind == ULD_SITE_STATIC) {
        uld_buf_puts(b, ", static");
    }
}

/*
 * One line per lock, except that the locks of one class made at one site
 * (a ring of buffers, an array of per-CPU locks) share one entry: their
 * site and source are the same, and repeating them buries the cycle.
 */
static void put_legend(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_puts(b, "\nlocks in this report:\n");
    for (int i = 0; i < r->nlocks; i++) {
        const struct uld_rlock *l = &r->locks[i];
        int first = 1, group = 0;
        for (int j = 0; j < r->nlocks; j++) {
            if (j != i && same_origin(l, &r->locks[j])) {
                first &= j > i;
                group++;
            }
        }
        if (!first)
            continue;
        char cname[ULD_NAME_MAX];
        uld_rlock_class_name(l, cname, sizeof(cname));
        uld_buf_puts(b, "  ");
        put_name(b, r, i);
        if (group) {
            for (int j = i + 1; j < r->nlocks; j++) {
                if (same_origin(l, &r->locks[j])) {
                    uld_buf_puts(b, ", ");
                    put_name(b, r, j);
                }
            }
            const char *type = uld_lock_type_name(l->type);
            uld_buf_printf(b, ": %d %s%s of class %s", group + 1, type,
                           type[strlen(type) - 1] == 'x' ? "es" : "s", cname);
        } else if (l->id) {
            uld_buf_printf(b, ": %s at %p, class %s", uld_lock_type_name(l->type),
                           (void *)l->addr, cname);
        } else {
            uld_buf_printf(b, ": a %s of class %s (that lock no longer exists)",
                           uld_lock_type_name(l->type), cname);
        }
        put_site(b, l);
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
        int wtype = r->locks[s->from].type;
        put_name(b, r, s->from);
        uld_buf_puts(b, wtype == ULD_TYPE_THREAD    ? " ends only after taking "
                        : wtype == ULD_TYPE_BARRIER ? " is reached only after taking "
                                                    : " has only ever been woken with ");
        put_name(b, r, s->to);
        uld_buf_puts(b, wtype == ULD_TYPE_THREAD || wtype == ULD_TYPE_BARRIER ? ";\n       "
                                                                              : " held;\n       ");
        put_name(b, r, s->to);
        uld_buf_puts(b, " was acquired at ");
        put_frame(b, s->from_ip, 1);
        uld_buf_puts(b, "\n       ");
        put_name(b, r, s->from);
        uld_buf_puts(b, wtype == ULD_TYPE_THREAD    ? " took it at:\n"
                        : wtype == ULD_TYPE_BARRIER ? " was then reached at:\n"
                                                    : " was then woken at:\n");
    } else {
        put_name(b, r, s->from);
        uld_buf_puts(b, " was acquired at ");
        put_frame(b, s->from_ip, 1);
        put_source(b, s->from_ip, 1, "           ");
        uld_buf_puts(b, "\n       ");
        put_name(b, r, s->to);
        uld_buf_puts(b, kind == STEP_WAIT ? " was then waited on at:\n"
                                          : " was then acquired at:\n");
    }
    put_stack_src(b, s->stack_id, "         ", 1);
}

/*
 * Hand over hand through locks of one class (a ring of log buffers, a list
 * walked node by node): steps a and b repeat one form when both take a
 * lock of one class while holding another of it, in the same modes, at
 * the same place.  Such runs are folded into one stanza.
 */
static uintptr_t stack_top(uint32_t stack_id)
{
    const uintptr_t *frames;
    return uld_stack_frames(stack_id, &frames) > 0 ? frames[0] : 0;
}

static int same_form(const struct uld_report *r, const struct uld_rstep *a,
                     const struct uld_rstep *b)
{
    const struct uld_rlock *l[4] = {&r->locks[a->from], &r->locks[a->to], &r->locks[b->from],
                                    &r->locks[b->to]};
    for (int i = 1; i < 4; i++)
        if (l[i]->class_id != l[0]->class_id || l[i]->subclass != l[0]->subclass)
            return 0;
    uintptr_t top = stack_top(a->stack_id);
    return step_kind(r, a) == STEP_LOCK && step_kind(r, b) == STEP_LOCK &&
           a->from_mode == b->from_mode && a->to_mode == b->to_mode && top &&
           top == stack_top(b->stack_id);
}

/* "a -> b -> ... -> z" for the locks of steps[first..last] (indexes mod nsteps). */
static void put_lock_run(struct uld_buf *b, const struct uld_report *r, int first, int last)
{
    int count = last - first + 1;
    put_name(b, r, r->steps[first % r->nsteps].from);
    for (int i = 0; i < count; i++) {
        if (count > 9 && i == 4) {
            uld_buf_printf(b, " -> ... (%d more)", count - 6);
            i = count - 3;
            continue;
        }
        uld_buf_puts(b, " -> ");
        put_name(b, r, r->steps[(first + i) % r->nsteps].to);
    }
}

/* Recorded steps k..end-1 of one form: one stanza, the first as the example. */
static void put_folded_steps(struct uld_buf *b, const struct uld_report *r, int k, int end)
{
    char cname[128];
    uld_rlock_class_name(&r->locks[r->steps[k].from], cname, sizeof(cname));
    uld_buf_printf(b, "\n-> #%d..#%d: %d dependencies of this form, each a lock of class %s "
                      "taken\n       while holding the one before it (hand over hand):\n       ",
                   r->nsteps - k, r->nsteps - end + 1, end - k, cname);
    put_lock_run(b, r, k, end - 1);
    uld_buf_printf(b, "\n     the first of them (#%d), as seen:", r->nsteps - k);
    put_step(b, r, k, r->nsteps - k);
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
    char from[ULD_NAME_MAX], to[ULD_NAME_MAX];
    uld_rlock_name(&r->locks[s->from], from, sizeof(from));
    uld_rlock_name(&r->locks[s->to], to, sizeof(to));
    switch (step_kind(r, s)) {
    case STEP_LOCK:
        put_column(b, k, "lock(%s);", pass ? to : from);
        break;
    case STEP_WAIT:
        put_column(b, k, !pass ? "lock(%s);"
                         : r->locks[s->to].type == ULD_TYPE_THREAD ? "join(%s);"
                         : r->locks[s->to].type == ULD_TYPE_BARRIER ? "barrier_wait(%s);"
                                                                    : "wait(%s);",
                   pass ? to : from);
        break;
    case STEP_WAKE: /* holds nothing yet: needs `to` before it can wake `from` */
        if (pass) {
            int wtype = r->locks[s->from].type;
            put_column(b, k, "lock(%s);", to);
            put_column(b, k, wtype == ULD_TYPE_THREAD    ? "/* then ends: %s */"
                             : wtype == ULD_TYPE_BARRIER ? "barrier_wait(%s);"
                                                         : "wake(%s);",
                       from);
        }
        break;
    }
}

/* The kernel's "possible unsafe locking scenario", one column per thread. */
static void put_scenario(struct uld_buf *b, const struct uld_report *r)
{
    int n = r->nsteps;
    uld_buf_puts(b, "\n possible unsafe locking scenario:\n\n");
    if (n > 4) { /* too wide for columns; runs of one form on one line */
        for (int k = 0, end; k < n; k = end) {
            for (end = k + 1; end < n && same_form(r, scenario_step(r, k), scenario_step(r, end));
                 end++)
                ;
            if (end - k >= 2) {
                uld_buf_printf(b, "  threads %d..%d each hold one and wait for the next: ", k + 1,
                               end);
                put_lock_run(b, r, k + 1, end);
                uld_buf_putc(b, '\n');
                continue;
            }
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
    put_source(b, r->ip, 1, "      ");
    uld_buf_puts(b, kind == STEP_WAKE ? "\n\nwhile it holds:\n    " : "\n\nbut it already holds:\n    ");
    put_lock_line(b, r, held);
    uld_buf_puts(b, ", acquired at ");
    put_frame(b, now->from_ip, 1);
    put_source(b, now->from_ip, 1, "      ");
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
    for (int k = 1, end; k < r->nsteps; k = end) {
        for (end = k + 1; end < r->nsteps && same_form(r, &r->steps[k], &r->steps[end]); end++)
            ;
        if (end - k >= 2)
            put_folded_steps(b, r, k, end);
        else
            put_step(b, r, k, r->nsteps - k);
    }
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
    put_source(b, r->ip, 1, "      ");
    uld_buf_printf(b, "\n\nproblem: %s\n", r->detail);
    if (r->stack_id) {
        uld_buf_puts(b, "\nstack:\n");
        put_stack(b, r->stack_id, "   ");
    }
}

static void put_destroyed_at(struct uld_buf *b, const struct uld_report *r)
{
    if (!r->prior_ip) {
        uld_buf_puts(b, "\ndestroyed at: unknown (its memory was freed since, or the "
                        "tombstone table was full)\n");
        return;
    }
    uld_buf_puts(b, "\ndestroyed at ");
    put_frame(b, r->prior_ip, 1);
    put_source(b, r->prior_ip, 1, "      ");
    uld_buf_putc(b, '\n');
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
    char name[ULD_NAME_MAX];
    uld_rlock_name(&r->locks[r->target], name, sizeof(name));
    uld_buf_printf(b, "\n possible unsafe locking scenario:\n\n  lock(%s);\n  <SIG%s arrives>\n"
                      "    lock(%s);   /* in the handler, on the same thread */\n\n"
                      " *** DEADLOCK ***\n",
                   name, sig ? sig : "?", name);
}

/* held[from..to) of thread `serial`. */
static void put_held_range(struct uld_buf *b, const struct uld_report *r, uint32_t serial,
                           int from, int to)
{
    uld_buf_printf(b, "    T%u holds:%s\n", serial, from < to ? "" : " nothing else");
    for (int i = from; i < to; i++) {
        uld_buf_puts(b, "      ");
        put_lock_line(b, r, r->held[i].lock);
        uld_buf_puts(b, ", acquired at ");
        put_frame(b, r->held[i].ip, 1);
        uld_buf_putc(b, '\n');
    }
}

/* hang-through-wait: steps[0] is the holder (holds `from`, waits on `to`),
 * steps[1] the thread blocked on the lock. */
static void put_hang_report(struct uld_buf *b, const struct uld_report *r)
{
    const struct uld_rstep *h = &r->steps[0], *a = &r->steps[1];
    struct uld_thread_info ti;
    put_thread(b, (int)a->serial, a->tid, uld_thread_info(a->serial, &ti) ? ti.name : NULL);
    uld_buf_puts(b, " is blocked on:\n    ");
    put_lock_line(b, r, h->from);
    uld_buf_puts(b, "\nheld by ");
    put_thread(b, (int)h->serial, h->tid, uld_thread_info(h->serial, &ti) ? ti.name : NULL);
    uld_buf_puts(b, ", which is blocked waiting on:\n    ");
    put_lock_line(b, r, h->to);
    uld_buf_printf(b, "\n%s.\n", r->detail);
    uld_buf_puts(b, "\n  ");
    put_thread(b, (int)h->serial, h->tid, NULL);
    uld_buf_puts(b, " holds ");
    put_name(b, r, h->from);
    uld_buf_puts(b, " (acquired at ");
    put_frame(b, h->from_ip, 1);
    uld_buf_puts(b, ")\n    and waits on ");
    put_name(b, r, h->to);
    uld_buf_puts(b, ", at:\n");
    put_stack(b, h->stack_id, "      ");
    put_held_range(b, r, h->serial, 0, r->held_split);
    uld_buf_puts(b, "\n  ");
    put_thread(b, (int)a->serial, a->tid, NULL);
    uld_buf_puts(b, " waits for ");
    put_name(b, r, h->from);
    uld_buf_puts(b, ", at:\n");
    put_stack(b, a->stack_id, "      ");
    put_held_range(b, r, a->serial, r->held_split, r->nheld);
    uld_buf_puts(b, "\n *** DEADLOCK ***\n");
}

/* blocked-at-kill: one step per blocked thread (`to`: what it waits for). */
static void put_killed_report(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_printf(b, "%s:\n", r->detail);
    for (int k = 0; k < r->nsteps; k++) {
        const struct uld_rstep *s = &r->steps[k];
        struct uld_thread_info ti;
        uld_buf_puts(b, "\n  ");
        put_thread(b, (int)s->serial, s->tid, uld_thread_info(s->serial, &ti) ? ti.name : NULL);
        uld_buf_puts(b, " waits for ");
        put_lock_line(b, r, s->to);
        for (int i = 0; i < r->nheld; i++)
            if (r->held[i].lock == s->to && r->held[i].serial != s->serial)
                uld_buf_printf(b, ", held by T%u", r->held[i].serial);
        uld_buf_puts(b, ", at ");
        put_frame(b, s->from_ip, 1);
        uld_buf_putc(b, '\n');
        if (s->stack_id)
            put_stack(b, s->stack_id, "      ");
        int mine = 0;
        for (int i = 0; i < r->nheld; i++)
            mine += r->held[i].serial == s->serial;
        uld_buf_printf(b, "    T%u holds:%s\n", s->serial, mine ? "" : " nothing");
        for (int i = 0; i < r->nheld; i++) {
            if (r->held[i].serial != s->serial)
                continue;
            uld_buf_puts(b, "      ");
            put_lock_line(b, r, r->held[i].lock);
            uld_buf_puts(b, ", acquired at ");
            put_frame(b, r->held[i].ip, 1);
            uld_buf_putc(b, '\n');
        }
    }
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

/* One line: for verbosity=0 and for limit warnings. */
void uld_report_render_line(struct uld_buf *b, const struct uld_report *r)
{
    const char *sev = uld_report_kind_is_error(r->kind) ? "ERROR" : "WARNING";
    uld_buf_printf(b, "ulockdep: %s: %s (%s)", sev,
                   r->kind == ULD_R_LIMIT ? r->detail : uld_report_message(r),
                   uld_report_kind_name(r->kind));
    if (r->kind != ULD_R_LIMIT && r->target >= 0) {
        uld_buf_puts(b, ": ");
        put_name(b, r, r->target);
    }
    uld_buf_putc(b, '\n');
}

/* The full report, as the kernel lays lockdep reports out. */
void uld_report_render_text(struct uld_buf *b, const struct uld_report *r)
{
    const char *sev = uld_report_kind_is_error(r->kind) ? "ERROR" : "WARNING";
    if (r->kind == ULD_R_LIMIT) {
        uld_report_render_line(b, r);
        return;
    }
    uld_buf_puts(b, "\n==================================================================\n");
    uld_buf_printf(b, "ulockdep %s: %s [%s]\n", sev, uld_report_message(r),
                   uld_report_kind_name(r->kind));
    uld_buf_printf(b, "------------------------------------------------------------------\n"
                      "pid %d, ",
                   (int)getpid());
    switch (r->kind) {
    case ULD_R_LOCK_ORDER:
    case ULD_R_CLASS_ORDER:
    case ULD_R_WAIT_FOR:
        put_order_report(b, r);
        break;
    case ULD_R_SELF_DEADLOCK:
        put_target_report(b, r, "is trying to acquire a lock it already holds");
        uld_buf_puts(b, "\n *** DEADLOCK ***\n");
        break;
    case ULD_R_SIGNAL_UNSAFE:
        put_signal_report(b, r);
        break;
    case ULD_R_DEADLOCK:
        put_deadlock_report(b, r);
        break;
    case ULD_R_HANG_WAIT:
        put_hang_report(b, r);
        break;
    case ULD_R_KILLED:
        put_killed_report(b, r);
        break;
    case ULD_R_USE_AFTER_DESTROY:
        put_target_report(b, r, "uses a destroyed lock");
        put_destroyed_at(b, r);
        break;
    case ULD_R_EXIT_HOLDING:
        put_thread(b, (int)r->serial, r->tid, r->thread_name);
        uld_buf_printf(b, " is exiting: %s\n", r->detail);
        break;
    default:
        put_target_report(b, r, r->kind == ULD_R_DESTROY_HELD   ? "destroys"
                                : r->kind == ULD_R_TRYLOCK_HELD ? "tries"
                                                                : "releases");
        break;
    }
    if (r->kind != ULD_R_DEADLOCK && r->kind != ULD_R_HANG_WAIT &&
        r->kind != ULD_R_KILLED) /* there every thread's locks are shown already */
        put_held(b, r);
    if (atomic_load(&uld_symbolize_raw))
        uld_buf_puts(b, "\n(code not symbolised: the signal may have interrupted malloc, so "
                        "frames are module+offset;\n `addr2line -f -e MODULE OFFSET` names them)\n");
    put_legend(b, r);
    if (r->kind != ULD_R_LIMIT)
        put_threads(b, r);
    uld_buf_puts(b, "==================================================================\n");
}

