/*
 * cmd_merge.c - `ulockdep merge [options] FILE|DIR...`: unite the lock-class
 * graph dumps of many processes (a DIR means its *.graph) and report every
 * deadlocking cycle of the union that no single dump contains, as a
 * `cross-run-cycle` report (deduplicated by its set of classes), printed
 * like `ulockdep report` prints reports.  Single-threaded.
 */
#include "commands.h"
#include "fleet.h"
#include "lockgraph.h"
#include "output.h"
#include "reports.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MERGE_MESSAGE "lock order cycle across processes"
#define CLASS_MESSAGE "lock class order cycle across processes"

struct merge_ctx {
    const struct lg_store *st;
    struct strmap known;    /* class sets of the baseline's own cycles */
    struct strmap reported; /* class sets already reported */
    struct report_set *out;
};

static void known_cycle(void *arg, const struct lg_edge *edges, int n)
{
    struct merge_ctx *m = arg;
    char *key = lg_cycle_key(m->st, edges, n);
    strmap_put(&m->known, key, 1);
    free(key);
}

static const struct lg_uedge *uedge_of(const struct lg_store *st, const struct lg_edge *e)
{
    struct sbuf k = {0};
    sbuf_printf(&k, "%d>%d", e->from, e->to);
    long idx = strmap_get(&st->edge_index, sbuf_cstr(&k));
    sbuf_free(&k);
    return &st->edges[idx];
}

static struct jv *class_json(const struct lg_class *c)
{
    struct jv *o = jv_object();
    jv_set(o, "key", jv_string(c->key));
    jv_set(o, "name", jv_string(c->name));
    jv_set(o, "lock_type", jv_string(jv_get_str(c->obj, "lock_type")));
    jv_set(o, "site", jv_string(jv_get_str(c->obj, "site")));
    jv_set(o, "max_live", c->live > 0 ? jv_long(c->live) : jv_null());
    jv_set(o, "single", jv_bool(lg_class_single(c)));
    return o;
}

/* One "cycle" entry: the merged edge and the dump that recorded it first. */
static struct jv *edge_json(struct merge_ctx *m, const struct lg_edge *e)
{
    const struct lg_store *st = m->st;
    const struct lg_uedge *u = uedge_of(st, e);
    const struct lg_origin *in = &st->origins[u->origin];
    struct jv *o = jv_object(), *types = jv_array(), *gates = jv_array();
    jv_set(o, "from", jv_string(st->classes[e->from].key));
    jv_set(o, "to", jv_string(st->classes[e->to].key));
    jv_set(o, "from_name", jv_string(st->classes[e->from].name));
    jv_set(o, "to_name", jv_string(st->classes[e->to].name));
    static const char *const names[] = {"EN", "ER", "SN", "SR"};
    for (int i = 0; i < 4; i++)
        if (e->types & (1u << i))
            jv_push(types, jv_string(names[i]));
    jv_set(o, "types", types);
    for (int i = 0; i < e->ngates; i++)
        jv_push(gates, jv_string(st->classes[e->gates[i] - 1].key));
    jv_set(o, "gates", gates);
    jv_set(o, "file", jv_string(in->file));
    jv_set(o, "program", jv_string(in->program));
    jv_set(o, "pid", in->pid >= 0 ? jv_long(in->pid) : jv_null());
    jv_set(o, "recordings", jv_long(u->recordings));
    jv_set(o, "baseline", jv_bool(!u->in_run));
    jv_set(o, "from_acquired_at", jv_clone(u->from_at));
    jv_set(o, "stack", jv_clone(u->stack));
    return o;
}

static void stack_text(struct sbuf *b, const struct jv *stack)
{
    for (size_t i = 0; i < jv_len(stack); i++) {
        sbuf_printf(b, "         #%-2zu ", i);
        frame_text(b, jv_at(stack, i));
        sbuf_putc(b, '\n');
    }
}

/* The human report, in the library's layout (lib/report/report_text.c). */
static void cycle_text(struct sbuf *b, const struct jv *r)
{
    static const char rule[] =
        "==================================================================\n";
    int error = !strcmp(jv_get_str(r, "severity"), "error");
    sbuf_printf(b, "\n%sulockdep %s: %s [%s]\n", rule, error ? "ERROR" : "WARNING",
                jv_get_str(r, "message"), jv_get_str(r, "kind"));
    sbuf_puts(b, "------------------------------------------------------------------\n"
                 "no single process took these locks in a deadlocking order, but the\n"
                 "orders recorded by these processes, together, can deadlock");
    sbuf_puts(b, error ? ":\n"
                       : ",\nif the classes marked [many] below stand for the same objects in\n"
                         "both orders (in some process they had more than one live instance):\n");
    const struct jv *cycle = jv_get(r, "cycle");
    for (size_t i = 0; i < jv_len(cycle); i++) {
        const struct jv *e = jv_at(cycle, i);
        const struct jv *from_at = jv_get(e, "from_acquired_at");
        sbuf_printf(b, "\n-> #%zu: %s -> %s [", i, jv_get_str(e, "from_name"),
                    jv_get_str(e, "to_name"));
        for (size_t t = 0; t < jv_len(jv_get(e, "types")); t++)
            sbuf_printf(b, "%s%s", t ? "," : "", jv_str(jv_at(jv_get(e, "types"), t)));
        sbuf_printf(b, "], recorded by pid %ld (%s) in %s", jv_int(jv_get(e, "pid"), -1),
                    jv_get_str(e, "program"), jv_get_str(e, "file"));
        long more = jv_int(jv_get(e, "recordings"), 1) - 1;
        if (more > 0)
            sbuf_printf(b, " and %ld other dump%s", more, more == 1 ? "" : "s");
        sbuf_puts(b, ":\n");
        if (jv_is(from_at, J_OBJECT)) {
            sbuf_printf(b, "       %s was acquired at ", jv_get_str(e, "from_name"));
            frame_text(b, from_at);
            sbuf_putc(b, '\n');
        }
        sbuf_printf(b, "       %s was then acquired at:\n", jv_get_str(e, "to_name"));
        stack_text(b, jv_get(e, "stack"));
    }
    sbuf_puts(b, "\nclasses in this report:\n");
    const struct jv *classes = jv_get(r, "classes");
    for (size_t i = 0; i < jv_len(classes); i++) {
        const struct jv *c = jv_at(classes, i);
        const char *type = jv_get_str(c, "lock_type"), *site = jv_get_str(c, "site");
        sbuf_printf(b, "  %s: %s", jv_get_str(c, "name"), jv_get_str(c, "key"));
        if (type)
            sbuf_printf(b, ", %s", type);
        if (site)
            sbuf_printf(b, ", %s", site);
        if (!jv_is(jv_get(c, "single"), J_TRUE))
            sbuf_puts(b, " [many]");
        sbuf_putc(b, '\n');
    }
    sbuf_puts(b, rule);
}

/* Kind + sorted class keys, hashed as lib/report/report.c hashes report signatures. */
static void signature(struct sbuf *b, const char *kind, const char *sorted_keys)
{
    uint64_t h = fnv_str(FNV_INIT, kind);
    char *keys = xstrdup(sorted_keys), *save = NULL;
    for (char *k = strtok_r(keys, "\n", &save); k; k = strtok_r(NULL, "\n", &save))
        h = fnv_str(h, k);
    free(keys);
    sbuf_printf(b, "%" PRIx64, h);
}

static struct jv *cycle_report(struct merge_ctx *m, const struct lg_edge *edges, int n,
                               const char *key)
{
    struct jv *r = jv_object(), *classes = jv_array(), *cycle = jv_array(), *procs = jv_array();
    struct sbuf sig = {0}, text = {0};
    int single = 1; /* every class one object: the cycle is as real as an instance cycle */
    for (int i = 0; i < n; i++)
        single &= lg_class_single(&m->st->classes[edges[i].from]);
    const char *kind = single ? "cross-run-cycle" : "cross-run-class-cycle";
    signature(&sig, kind, key);
    jv_set(r, "kind", jv_string(kind));
    jv_set(r, "severity", jv_string(single ? "error" : "warning"));
    jv_set(r, "message", jv_string(single ? MERGE_MESSAGE : CLASS_MESSAGE));
    jv_set(r, "signature", jv_string(sbuf_cstr(&sig)));
    for (int i = 0; i < n; i++) {
        struct jv *e = edge_json(m, &edges[i]);
        long pid = jv_int(jv_get(e, "pid"), -1);
        int dup = pid < 0;
        for (size_t j = 0; j < procs->n && !dup; j++)
            dup = jv_int(procs->u.items[j], -2) == pid;
        if (!dup)
            jv_push(procs, jv_long(pid));
        jv_push(classes, class_json(&m->st->classes[edges[i].from]));
        jv_push(cycle, e);
    }
    jv_set(r, "classes", classes);
    jv_set(r, "cycle", cycle);
    jv_set(r, "stack", jv_clone(jv_get(jv_at(cycle, 0), "stack")));
    jv_set(r, "processes", procs);
    cycle_text(&text, r);
    jv_set(r, "text", jv_string(sbuf_cstr(&text)));
    sbuf_free(&sig);
    sbuf_free(&text);
    return r;
}

/* Reported unless one process showed it by itself (the library reported it
 * there) or the baseline holds it already. */
static void union_cycle(void *arg, const struct lg_edge *edges, int n)
{
    struct merge_ctx *m = arg;
    char *key = lg_cycle_key(m->st, edges, n);
    if (strmap_get(&m->st->single, key) < 0 && strmap_get(&m->known, key) < 0 &&
        strmap_get(&m->reported, key) < 0) {
        strmap_put(&m->reported, key, 1);
        reports_add(m->out, cycle_report(m, edges, n, key));
    }
    free(key);
}

static void find_cross_run_cycles(const struct lg_store *st, struct report_set *out)
{
    struct merge_ctx m = {.st = st, .out = out};
    struct lg_edge *base = xcalloc(st->nedges + 1, sizeof(*base));
    size_t nbase = 0;
    for (size_t i = 0; i < st->nedges; i++)
        if (st->edges[i].base.types) {
            base[nbase] = st->edges[i].base;
            base[nbase].from = st->edges[i].e.from;
            base[nbase++].to = st->edges[i].e.to;
        }
    if (nbase)
        lg_cycles(st, base, nbase, known_cycle, &m);
    free(base);
    lg_union_cycles(st, union_cycle, &m);
    strmap_free(&m.known);
    strmap_free(&m.reported);
}

static int write_graph(const struct lg_store *st, const char *path)
{
    struct sbuf b = {0};
    lg_write(&b, st);
    FILE *f = fopen(path, "w");
    int bad = !f || fwrite(b.s, 1, b.len, f) != b.len;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        tool_error("%s: cannot write the merged graph: %s", path, strerror(errno));
    sbuf_free(&b);
    return bad ? -1 : 0;
}

/* " from 3 graph dumps (5 lock classes); 1 incomplete ...": what the verdict rests on. */
static void context_line(struct sbuf *b, struct lg_store *st, long base_dumps, long no_graph)
{
    sbuf_printf(b, " from %ld graph dump%s (%zu lock classes)", st->ndumps - base_dumps,
                st->ndumps - base_dumps == 1 ? "" : "s", st->nclasses);
    if (base_dumps)
        sbuf_printf(b, " and a baseline of %ld", base_dumps);
    if (st->incomplete)
        sbuf_printf(b, "; %ld dump%s incomplete (process killed before exit)", st->incomplete,
                    st->incomplete == 1 ? "" : "s");
    if (no_graph)
        sbuf_printf(b, "; %ld process%s left reports but no graph", no_graph,
                    no_graph == 1 ? "" : "es");
}

/* Processes under the DIR inputs with a report file but no graph dump. */
static long without_graph(struct lg_store *st, char **args, int n)
{
    long *pids;
    size_t np = fleet_pids(args, n, ".jsonl", &pids);
    long missing = 0;
    for (size_t i = 0; i < np; i++)
        missing += (!i || pids[i] != pids[i - 1]) && !lg_has_pid(st, pids[i]);
    free(pids);
    return missing;
}

static void load_all(struct lg_store *st, const struct emit_opts *o, char **args, int n,
                     long *base_dumps)
{
    for (int i = 0; i < o->nbaseline; i++)
        lg_load(st, o->baseline[i], 1);
    *base_dumps = st->ndumps;
    struct pathlist inputs = {0};
    for (int i = 0; i < n; i++)
        if (pathlist_add(&inputs, args[i], ".graph") < 0)
            st->io_errors++;
    for (size_t i = 0; i < inputs.n; i++)
        lg_load(st, inputs.paths[i], 0);
    pathlist_free(&inputs);
}

int cmd_merge(int argc, char **argv)
{
    struct emit_opts o = {.fmt = FMT_TEXT, .command = "merge"};
    int r = emit_parse_args(argc, argv, &o);
    if (r) {
        if (r > 0)
            help_command("merge", stdout);
        return r > 0 ? 0 : 2;
    }
    if (optind >= argc) {
        tool_error("merge: no graph dump given (FILE or DIR of *.graph)");
        return 2;
    }
    struct lg_store st = {0};
    long base_dumps;
    load_all(&st, &o, argv + optind, argc - optind, &base_dumps);
    struct report_set s = {0};
    find_cross_run_cycles(&st, &s);
    int wrote = o.write_graph ? write_graph(&st, o.write_graph) : 0;
    s.io_errors = st.io_errors + (wrote < 0);
    s.bad_lines = st.bad_lines;
    s.files = st.ninputs;
    struct sbuf context = {0};
    context_line(&context, &st, base_dumps, without_graph(&st, argv + optind, argc - optind));
    o.context = sbuf_cstr(&context);
    int status = emit_reports(&s, &o);
    sbuf_free(&context);
    reports_free(&s);
    lg_free(&st);
    return status;
}
