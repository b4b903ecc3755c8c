/*
 * reports.c - loading and deduplicating reports, and views of one report
 * (see reports.h).  Field names follow docs/reports.md; missing fields are
 * tolerated everywhere (null, absent, or of another type).  Single-threaded.
 */
#include "reports.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- loading -------------------------------------------------------------- */

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "sig:<signature>", else "kind:<kind>\n<sorted lock names>". */
static char *dedup_key(const struct jv *r)
{
    struct sbuf k = {0};
    const char *sig = jv_get_str(r, "signature");
    if (sig && *sig) {
        sbuf_printf(&k, "sig:%s", sig);
        return k.s;
    }
    const char *names[256];
    size_t n = report_names(r, names, 256);
    qsort(names, n, sizeof(names[0]), by_str);
    sbuf_printf(&k, "kind:%s", report_kind(r));
    for (size_t i = 0; i < n; i++)
        sbuf_printf(&k, "\n%s", names[i]);
    return k.s;
}

static void add_pid(struct report *rep, long pid)
{
    for (size_t i = 0; i < rep->npids; i++)
        if (rep->pids[i] == pid)
            return;
    xgrow(&rep->pids, &rep->cappids, rep->npids + 1, sizeof(long));
    rep->pids[rep->npids++] = pid;
}

/* Pids of a report: its "pid", or the "processes" a merged report lists. */
static void add_pids(struct report_set *s, struct report *rep, const struct jv *r)
{
    const struct jv *procs = jv_get(r, "processes");
    long pid = jv_int(jv_get(r, "pid"), -1);
    for (size_t i = 0; pid < 0 && i < jv_len(procs); i++) {
        long p = jv_int(jv_at(procs, i), -1);
        if (p >= 0)
            add_pid(rep, p);
    }
    if (pid >= 0)
        add_pid(rep, pid);
    for (size_t i = 0; i < rep->npids; i++) {
        char num[32];
        snprintf(num, sizeof(num), "%ld", rep->pids[i]);
        strmap_put(&s->pids, num, 1);
    }
}

void reports_add(struct report_set *s, struct jv *obj)
{
    char *key = dedup_key(obj);
    long idx = strmap_get(&s->index, key);
    if (idx >= 0) {
        add_pids(s, &s->items[idx], obj);
        jv_free(obj);
        free(key);
        return;
    }
    xgrow(&s->items, &s->cap, s->n + 1, sizeof(struct report));
    struct report *rep = &s->items[s->n];
    memset(rep, 0, sizeof(*rep));
    rep->obj = obj;
    rep->key = key;
    strmap_put(&s->index, key, (long)s->n++);
    add_pids(s, rep, obj);
}

/* One input file being read. */
struct loader {
    struct report_set *s;
    const char *path;
    long lineno;
    long errors; /* malformed lines in this file */
    int stop;    /* the rest of the file is skipped */
};

#define ERRORS_SHOWN 10 /* per file; then one line says how many more */

static void malformed(struct loader *ld, const char *what)
{
    ld->s->bad_lines++;
    if (++ld->errors <= ERRORS_SHOWN)
        tool_error("%s:%ld: %s; line skipped", ld->path, ld->lineno, what);
}

static void load_line(struct loader *ld, const char *line, size_t len)
{
    while (len && strchr("\r\n \t", line[len - 1]))
        len--;
    if (!len)
        return; /* blank */
    struct json_error err;
    struct jv *r = json_parse(line, len, &err);
    if (!r) {
        char what[160];
        snprintf(what, sizeof(what), "invalid JSON at column %zu: %s", err.offset + 1, err.msg);
        malformed(ld, what);
        return;
    }
    const char *type = jv_get_str(r, "type");
    if (ld->lineno == 1 && type && !strcmp(type, "ulockdep-graph")) {
        tool_error("%s: a graph dump, not reports (read it with `ulockdep merge` or "
                   "`ulockdep graph`); file skipped",
                   ld->path);
        ld->s->io_errors++;
        ld->stop = 1;
        jv_free(r);
    } else if (type && !strcmp(type, "ulockdep-reports")) {
        /* a process's first record: counted even when it reported nothing */
        char num[32];
        snprintf(num, sizeof(num), "%ld", jv_int(jv_get(r, "pid"), -1));
        strmap_put(&ld->s->pids, num, 1);
        jv_free(r);
    } else if (!jv_get_str(r, "kind")) {
        malformed(ld, "not a ulockdep report (no \"kind\" string)");
        jv_free(r);
    } else {
        reports_add(ld->s, r);
    }
}

int reports_load(struct report_set *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        s->io_errors++;
        return -1;
    }
    struct loader ld = {s, path, 0, 0, 0};
    char *line = NULL;
    size_t cap = 0;
    for (ssize_t n; !ld.stop && (n = read_line_capped(f, &line, &cap, tool_line_max())) != -1;) {
        if (n == -2) {
            tool_error("%s:%ld: line longer than %zu bytes; rest of the file skipped", path,
                       ld.lineno + 1, tool_line_max());
            s->io_errors++;
            break;
        }
        ld.lineno++;
        load_line(&ld, line, (size_t)n);
    }
    if (ld.errors > ERRORS_SHOWN)
        tool_error("%s: %ld more malformed lines skipped", path, ld.errors - ERRORS_SHOWN);
    int bad = ferror(f);
    if (bad) {
        tool_error("%s: read error", path);
        s->io_errors++;
    }
    free(line);
    fclose(f);
    s->files++;
    return bad ? -1 : 0;
}

void reports_free(struct report_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        jv_free(s->items[i].obj);
        free(s->items[i].key);
        free(s->items[i].pids);
    }
    free(s->items);
    strmap_free(&s->index);
    strmap_free(&s->pids);
    memset(s, 0, sizeof(*s));
}

/* ---- views ------------------------------------------------------------------ */

const char *report_kind(const struct jv *r)
{
    const char *k = jv_get_str(r, "kind");
    return k ? k : "unknown";
}

int report_is_error(const struct jv *r)
{
    const char *sev = jv_get_str(r, "severity");
    return !sev || strcmp(sev, "warning") != 0;
}

static size_t names_of(const struct jv *arr, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < jv_len(arr) && n < max; i++) {
        const char *name = jv_get_str(jv_at(arr, i), "name");
        if (name)
            out[n++] = name;
    }
    return n;
}

size_t report_names(const struct jv *r, const char **out, size_t max)
{
    size_t n = names_of(jv_get(r, "locks"), out, max);
    return n ? n : names_of(jv_get(r, "classes"), out, max);
}

/* Name of a cycle edge's end: "<end>_name", else the lock/class it refers to. */
static const char *end_name(const struct jv *r, const struct jv *edge, const char *end)
{
    char field[16];
    snprintf(field, sizeof(field), "%s_name", end);
    const char *name = jv_get_str(edge, field);
    const struct jv *ref = jv_get(edge, end);
    if (name)
        return name;
    if (jv_str(ref))
        return jv_str(ref);
    static const char *const tables[] = {"locks", "classes"};
    for (int t = 0; t < 2; t++) {
        const struct jv *arr = jv_get(r, tables[t]);
        for (size_t i = 0; ref && i < jv_len(arr); i++) {
            const struct jv *id = jv_get(jv_at(arr, i), "id");
            if (jv_is(id, J_NUMBER) && jv_is(ref, J_NUMBER) && id->num == ref->num) {
                const char *found = jv_get_str(jv_at(arr, i), "name");
                return found ? found : "?";
            }
        }
    }
    return "?";
}

/* Does each edge start where the previous one ended, and the last end at the first? */
static int chains(const struct jv *r, const struct jv *cycle)
{
    size_t n = jv_len(cycle);
    for (size_t i = 0; i < n; i++)
        if (strcmp(end_name(r, jv_at(cycle, i), "to"),
                   end_name(r, jv_at(cycle, (i + 1) % n), "from")))
            return 0;
    return 1;
}

void report_headline(struct sbuf *b, const struct jv *r)
{
    const char *msg = jv_get_str(r, "message");
    sbuf_puts(b, msg ? msg : report_kind(r));
    const struct jv *cycle = jv_get(r, "cycle");
    size_t n = jv_len(cycle);
    if (n) {
        sbuf_puts(b, ": ");
        if (chains(r, cycle)) { /* "a -> b -> a" */
            for (size_t i = 0; i < n; i++)
                sbuf_printf(b, "%s -> ", end_name(r, jv_at(cycle, i), "from"));
            sbuf_puts(b, end_name(r, jv_at(cycle, n - 1), "to"));
            return;
        }
        for (size_t i = 0; i < n; i++) /* instances differ (class cycles): "a1 -> b1, b2 -> a2" */
            sbuf_printf(b, "%s%s -> %s", i ? ", " : "", end_name(r, jv_at(cycle, i), "from"),
                        end_name(r, jv_at(cycle, i), "to"));
        return;
    }
    const char *names[64];
    size_t k = report_names(r, names, 64);
    for (size_t i = 0; i < k; i++)
        sbuf_printf(b, "%s%s", i ? ", " : ": ", names[i]);
}

static int has_file(const struct jv *frame)
{
    const char *f = jv_get_str(frame, "file");
    return f && *f;
}

int frame_is_inlined(const struct jv *frame)
{
    const struct jv *v = jv_get(frame, "inlined");
    return v && jv_is(v, J_TRUE);
}

/* An inlined body from a system header (std::mutex::lock, a libc inline)
 * is the library's code, not a place in the program to point at. */
static int system_inline(const struct jv *frame)
{
    return frame_is_inlined(frame) && !strncmp(jv_get_str(frame, "file"), "/usr/", 5);
}

const struct jv *frames_first_with_file(const struct jv *frames)
{
    for (size_t i = 0; i < jv_len(frames); i++)
        if (has_file(jv_at(frames, i)) && !system_inline(jv_at(frames, i)))
            return jv_at(frames, i);
    return NULL;
}

const struct jv *report_site(const struct jv *r)
{
    const struct jv *f = frames_first_with_file(jv_get(r, "stack"));
    if (f)
        return f;
    return has_file(jv_get(r, "at")) ? jv_get(r, "at") : NULL;
}

void edge_label(struct sbuf *b, const struct jv *r, const struct jv *edge)
{
    sbuf_printf(b, "%s -> %s", end_name(r, edge, "from"), end_name(r, edge, "to"));
    const struct jv *t = jv_get(edge, "thread");
    long serial = jv_int(jv_get(t, "serial"), -1);
    if (serial >= 0) {
        const char *name = jv_get_str(t, "name");
        sbuf_printf(b, ", thread T%ld", serial);
        if (name)
            sbuf_printf(b, " (%s)", name);
    }
    long pid = jv_int(jv_get(edge, "pid"), -1);
    if (pid >= 0) {
        const char *prog = jv_get_str(edge, "program");
        sbuf_printf(b, ", pid %ld", pid);
        if (prog)
            sbuf_printf(b, " (%s)", prog);
    }
}

void frame_text(struct sbuf *b, const struct jv *frame)
{
    const char *fn = jv_get_str(frame, "function");
    const char *file = jv_get_str(frame, "file");
    const char *mod = jv_get_str(frame, "module");
    long line = jv_int(jv_get(frame, "line"), 0);
    sbuf_puts(b, fn ? fn : "??");
    if (file && line > 0)
        sbuf_printf(b, " (%s:%ld)", file, line);
    else if (file)
        sbuf_printf(b, " (%s)", file);
    else if (mod)
        sbuf_printf(b, " (%s)", mod);
    if (!fn && !file && !mod) {
        const char *addr = jv_get_str(frame, "address");
        sbuf_printf(b, " %s", addr ? addr : "");
    }
    if (frame_is_inlined(frame))
        sbuf_puts(b, " [inlined]");
}

static void each_in(const struct jv *frames, frame_fn *fn, void *ctx)
{
    for (size_t i = 0; i < jv_len(frames); i++)
        if (jv_is(jv_at(frames, i), J_OBJECT))
            fn(jv_at(frames, i), ctx);
}

void report_each_frame(const struct jv *r, frame_fn *fn, void *ctx)
{
    if (jv_is(jv_get(r, "at"), J_OBJECT))
        fn(jv_get(r, "at"), ctx);
    each_in(jv_get(r, "stack"), fn, ctx);
    const struct jv *cycle = jv_get(r, "cycle");
    for (size_t i = 0; i < jv_len(cycle); i++) {
        const struct jv *from = jv_get(jv_at(cycle, i), "from_acquired_at");
        if (jv_is(from, J_OBJECT))
            fn(from, ctx);
        each_in(jv_get(jv_at(cycle, i), "stack"), fn, ctx);
    }
    const struct jv *held = jv_get(r, "held");
    for (size_t i = 0; i < jv_len(held); i++) {
        const struct jv *at = jv_get(jv_at(held, i), "acquired_at");
        if (jv_is(at, J_OBJECT))
            fn(at, ctx);
    }
}

void report_render(struct sbuf *b, const struct jv *r)
{
    sbuf_printf(b, "ulockdep: %s (%s): ", report_kind(r), report_is_error(r) ? "error" : "warning");
    report_headline(b, r);
    sbuf_putc(b, '\n');
    const struct jv *site = report_site(r);
    if (!site && jv_is(jv_get(r, "at"), J_OBJECT))
        site = jv_get(r, "at");
    if (site) {
        sbuf_puts(b, "  at ");
        frame_text(b, site);
        sbuf_putc(b, '\n');
    }
    const struct jv *cycle = jv_get(r, "cycle");
    for (size_t i = 0; i < jv_len(cycle); i++) {
        const struct jv *e = jv_at(cycle, i);
        const struct jv *top = frames_first_with_file(jv_get(e, "stack"));
        sbuf_printf(b, "  #%zu ", i);
        edge_label(b, r, e);
        if (top || jv_at(jv_get(e, "stack"), 0)) {
            sbuf_puts(b, ": ");
            frame_text(b, top ? top : jv_at(jv_get(e, "stack"), 0));
        }
        sbuf_putc(b, '\n');
    }
    const struct jv *held = jv_get(r, "held");
    for (size_t i = 0; i < jv_len(held); i++) {
        const struct jv *h = jv_at(held, i);
        const char *name = jv_get_str(h, "name");
        if (!name)
            name = end_name(r, h, "lock");
        const char *mode = jv_get_str(h, "mode");
        sbuf_printf(b, "  held: %s (%s)", name, mode ? mode : "?");
        if (jv_is(jv_get(h, "acquired_at"), J_OBJECT)) {
            sbuf_puts(b, " acquired at ");
            frame_text(b, jv_get(h, "acquired_at"));
        }
        sbuf_putc(b, '\n');
    }
}
