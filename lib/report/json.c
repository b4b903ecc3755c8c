/*
 * json.c - one JSON object per report (JSON Lines), the format CI tools and
 * the test suite read; see docs/reports.md.  Called under the report lock.
 */
#include "symbolize.h"
#include "model/chain.h"
#include "model/graph.h"
#include "model/lock.h"
#include "model/modules.h"
#include "report.h"
#include "model/stack.h"
#include "model/thread.h"

#include <unistd.h>

static void key(struct uld_buf *b, const char *k)
{
    uld_buf_json_str(b, k);
    uld_buf_putc(b, ':');
}

static void frame_object(struct uld_buf *b, uintptr_t addr, const struct uld_frame_info *fi)
{
    uld_buf_printf(b, "{\"address\":\"%p\",\"function\":", (void *)uld_addr_real(addr));
    uld_buf_json_str(b, fi->function);
    uld_buf_puts(b, ",\"file\":");
    uld_buf_json_str(b, fi->file);
    uld_buf_printf(b, ",\"line\":%d,\"module\":", fi->line);
    uld_buf_json_str(b, fi->module);
    uld_buf_printf(b, ",\"inlined\":%s}", fi->inlined ? "true" : "false");
}

/* A single position: the real function (its line is where any inlined body was called). */
static void frame(struct uld_buf *b, uintptr_t addr, int is_return)
{
    struct uld_frame_info fi;
    uld_symbolize(addr, is_return, &fi);
    frame_object(b, addr, &fi);
}

/* A stack: each return address expanded into its inline chain, innermost first. */
static void stack(struct uld_buf *b, uint32_t id)
{
    const uintptr_t *frames;
    int n = uld_stack_frames(id, &frames);
    uld_buf_putc(b, '[');
    for (int i = 0; i < n; i++) {
        struct uld_frame_info chain[ULD_MAX_INLINE];
        int len = uld_symbolize_inline(frames[i], 1, chain, ULD_MAX_INLINE);
        for (int k = 0; k < len; k++) {
            if (i || k)
                uld_buf_putc(b, ',');
            frame_object(b, frames[i], &chain[k]);
        }
    }
    uld_buf_putc(b, ']');
}

static void thread(struct uld_buf *b, uint32_t serial, int tid, const char *name)
{
    uld_buf_printf(b, "{\"serial\":%u,\"tid\":%d,\"name\":", serial, tid);
    uld_buf_json_str(b, name && name[0] ? name : NULL);
    uld_buf_putc(b, '}');
}

static void lock_name(struct uld_buf *b, const struct uld_report *r, int idx)
{
    char name[ULD_NAME_MAX];
    if (idx < 0 || idx >= r->nlocks) {
        uld_buf_puts(b, "null");
        return;
    }
    uld_rlock_name(&r->locks[idx], name, sizeof(name));
    uld_buf_json_str(b, name);
}

static void locks(struct uld_buf *b, const struct uld_report *r)
{
    char cname[ULD_NAME_MAX];
    int first = 1;
    uld_buf_puts(b, ",\"locks\":[");
    for (int i = 0; i < r->nlocks; i++) {
        const struct uld_rlock *l = &r->locks[i];
        if (l->context)
            continue;
        uld_rlock_class_name(l, cname, sizeof(cname));
        uld_buf_printf(b, "%s{\"id\":%u,\"name\":", first ? "" : ",", l->id);
        first = 0;
        lock_name(b, r, i);
        uld_buf_printf(b, ",\"class\":");
        uld_buf_json_str(b, cname);
        uld_buf_printf(b, ",\"class_id\":%u,\"type\":\"%s\",\"address\":\"%p\",\"subclass\":%u,"
                          "\"site\":{\"kind\":\"%s\",\"at\":",
                       l->class_id, uld_lock_type_name(l->type), (void *)l->addr,
                       (unsigned)l->subclass, uld_site_kind_name(l->site_kind));
        if (l->site_ip)
            frame(b, l->site_kind == ULD_SITE_FIRST_USE && l->class_stack
                         ? uld_class_site_frame(l->class_stack, l->site_ip)
                         : l->site_ip,
                  1);
        else
            uld_buf_puts(b, "null");
        uld_buf_puts(b, "}}");
    }
    uld_buf_putc(b, ']');
}

/* Classes of the report: the cycle's for class-order, else those of its locks. */
static void classes(struct uld_buf *b, const struct uld_report *r)
{
    char cname[ULD_NAME_MAX];
    uint32_t done[ULD_R_MAX_LOCKS];
    int ndone = 0;
    uld_buf_puts(b, ",\"classes\":[");
    int n = r->kind == ULD_R_CLASS_ORDER ? r->nclasses : r->nlocks;
    for (int i = 0; i < n; i++) {
        int li = r->kind == ULD_R_CLASS_ORDER ? r->class_lock[i] : i;
        if (li < 0 || li >= r->nlocks || r->locks[li].context)
            continue;
        uint32_t id = r->locks[li].class_id;
        int dup = 0;
        for (int j = 0; j < ndone; j++)
            dup |= done[j] == id;
        if (dup)
            continue;
        done[ndone++] = id;
        uld_rlock_class_name(&r->locks[li], cname, sizeof(cname));
        uld_buf_printf(b, "%s{\"id\":%u,\"name\":", ndone > 1 ? "," : "", id);
        uld_buf_json_str(b, cname);
        uld_buf_putc(b, '}');
    }
    uld_buf_putc(b, ']');
}

static const char *mode_word(unsigned mode)
{
    return (mode & ULD_MODE_READ) ? "read" : "write";
}

static void cycle(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_puts(b, ",\"cycle\":[");
    for (int i = 0; i < r->nsteps; i++) {
        const struct uld_rstep *s = &r->steps[i];
        uld_buf_printf(b, "%s{\"from\":%u,\"to\":%u,\"from_name\":", i ? "," : "",
                       r->locks[s->from].id, r->locks[s->to].id);
        lock_name(b, r, s->from);
        uld_buf_puts(b, ",\"to_name\":");
        lock_name(b, r, s->to);
        int wake = uld_is_wait_type(r->locks[s->from].type);
        int wait = uld_is_wait_type(r->locks[s->to].type);
        uld_buf_printf(b, ",\"step\":\"%s\",\"mode\":\"%s->%s\",\"thread\":",
                       wake ? "wake" : wait ? "wait" : "lock", wake ? "wake" : mode_word(s->from_mode),
                       wait ? "wait" : mode_word(s->to_mode));
        thread(b, s->serial, s->tid, i == 0 ? r->thread_name : NULL);
        uld_buf_puts(b, ",\"from_acquired_at\":");
        frame(b, s->from_ip, 1);
        uld_buf_puts(b, ",\"stack\":");
        stack(b, s->stack_id);
        uld_buf_putc(b, '}');
    }
    uld_buf_putc(b, ']');
}

static void held(struct uld_buf *b, const struct uld_report *r)
{
    uld_buf_puts(b, ",\"held\":[");
    for (int i = 0; i < r->nheld; i++) {
        const struct uld_rheld *h = &r->held[i];
        uld_buf_printf(b, "%s{\"lock\":%u,\"name\":", i ? "," : "", r->locks[h->lock].id);
        lock_name(b, r, h->lock);
        uld_buf_printf(b, ",\"mode\":\"%s\",\"acquired_at\":", mode_word(h->mode));
        frame(b, h->ip, 1);
        uld_buf_putc(b, '}');
    }
    uld_buf_putc(b, ']');
}

static void threads(struct uld_buf *b, const struct uld_report *r)
{
    uint32_t serials[ULD_R_MAX_LOCKS + 1];
    int n = uld_report_threads(r, serials, ULD_R_MAX_LOCKS + 1), first = 1;
    uld_buf_puts(b, ",\"threads\":[");
    for (int i = 0; i < n; i++) {
        struct uld_thread_info ti;
        if (!uld_thread_info(serials[i], &ti))
            continue;
        uld_buf_puts(b, first ? "" : ",");
        first = 0;
        uld_buf_printf(b, "{\"serial\":%u,\"tid\":%d,\"name\":", serials[i], ti.tid);
        uld_buf_json_str(b, ti.name[0] ? ti.name : NULL);
        uld_buf_printf(b, ",\"created_by\":%u,\"created_at\":", ti.parent_serial);
        stack(b, ti.created_stack);
        uld_buf_putc(b, '}');
    }
    uld_buf_putc(b, ']');
}

void uld_json_emit(struct uld_buf *b, const struct uld_report *r, const char *text,
                   const char *signature)
{
    uld_buf_puts(b, "{");
    key(b, "kind");
    uld_buf_json_str(b, uld_report_kind_name(r->kind));
    uld_buf_printf(b, ",\"severity\":\"%s\",\"pid\":%d,\"message\":",
                   uld_report_kind_is_error(r->kind) ? "error" : "warning", (int)getpid());
    uld_buf_json_str(b, uld_report_message(r));
    uld_buf_puts(b, ",\"signature\":");
    uld_buf_json_str(b, signature);
    uld_buf_puts(b, ",\"detail\":");
    uld_buf_json_str(b, r->detail[0] ? r->detail : NULL);
    if (r->kind != ULD_R_LIMIT) {
        uld_buf_puts(b, ",\"thread\":");
        thread(b, r->serial, r->tid, r->thread_name);
        if (r->ip) {
            uld_buf_puts(b, ",\"at\":");
            frame(b, r->ip, 1);
        }
    }
    locks(b, r);
    classes(b, r);
    if (r->nsteps)
        cycle(b, r);
    held(b, r);
    if (r->kind != ULD_R_LIMIT)
        threads(b, r);
    uld_buf_puts(b, ",\"stack\":");
    stack(b, r->stack_id);
    if (r->kind == ULD_R_USE_AFTER_DESTROY) {
        uld_buf_puts(b, ",\"destroyed_at\":");
        if (r->prior_ip)
            frame(b, r->prior_ip, 1);
        else
            uld_buf_puts(b, "null");
    }
    uld_buf_puts(b, ",\"text\":");
    uld_buf_json_str(b, text);
    uld_buf_putc(b, '}');
}
