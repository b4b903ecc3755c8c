/*
 * cmd_merge.c - `ulockdep merge [options] FILE|DIR...`: unite the lock-class
 * graph dumps of many processes (a DIR means its *.graph) and report every
 * deadlocking cycle of the union that no single dump contains, as a
 * `cross-run-cycle` report (deduplicated by its set of classes), printed
 * like `ulockdep report` prints reports.  Single-threaded.
 */
#include "commands.h"
#include "lockgraph.h"
#include "output.h"
#include "reports.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MERGE_MESSAGE "lock order cycle across processes"

struct merge_ctx {
    const struct lg_store *st;
    struct strmap single;       /* class sets of cycles one dump has by itself */
    struct strmap reported;     /* class sets already reported */
    struct strmap first_record; /* "from>to" -> index of the first record of that edge */
    long *counts;               /* by first record: records of that edge */
    struct report_set *out;
};

static void record_key(struct sbuf *b, int from, int to)
{
    sbuf_reset(b);
    sbuf_printf(b, "%d>%d", from, to);
}

/* Per edge (from, to): its first record and how many dumps recorded it. */
static void index_records(struct merge_ctx *m)
{
    struct sbuf k = {0};
    m->counts = xcalloc(m->st->nrecords, sizeof(long));
    for (size_t i = 0; i < m->st->nrecords; i++) {
        record_key(&k, m->st->records[i].from, m->st->records[i].to);
        m->counts[strmap_put(&m->first_record, sbuf_cstr(&k), (long)i)]++;
    }
    sbuf_free(&k);
}

static const struct lg_record *first_record(struct merge_ctx *m, const struct lg_edge *e,
                                            long *count)
{
    struct sbuf k = {0};
    record_key(&k, e->from, e->to);
    long idx = strmap_get(&m->first_record, sbuf_cstr(&k));
    sbuf_free(&k);
    *count = m->counts[idx];
    return &m->st->records[idx];
}

static void single_cycle(void *arg, const struct lg_edge *edges, int n)
{
    struct merge_ctx *m = arg;
    char *key = lg_cycle_key(m->st, edges, n);
    strmap_put(&m->single, key, 1);
    free(key);
}

static struct jv *class_json(const struct lg_class *c)
{
    struct jv *o = jv_object();
    jv_set(o, "key", jv_string(c->key));
    jv_set(o, "name", jv_string(c->name));
    jv_set(o, "lock_type", jv_string(jv_get_str(c->obj, "lock_type")));
    jv_set(o, "site", jv_string(jv_get_str(c->obj, "site")));
    return o;
}

/* One "cycle" entry: the merged edge and the dump that recorded it first. */
static struct jv *edge_json(struct merge_ctx *m, const struct lg_edge *e)
{
    const struct lg_store *st = m->st;
    long count;
    const struct lg_record *rec = first_record(m, e, &count);
    const struct lg_input *in = &st->inputs[rec->input];
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
    jv_set(o, "file", jv_string(in->path));
    jv_set(o, "program", jv_string(in->program));
    jv_set(o, "pid", in->pid >= 0 ? jv_long(in->pid) : jv_null());
    jv_set(o, "recordings", jv_long(count));
    jv_set(o, "from_acquired_at", jv_clone(jv_get(rec->obj, "from_acquired_at")));
    jv_set(o, "stack", jv_clone(jv_get(rec->obj, "stack")));
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

/* The human report, in the library's layout (lib/report_text.c). */
static void cycle_text(struct sbuf *b, const struct jv *r)
{
    static const char rule[] =
        "==================================================================\n";
    sbuf_printf(b, "\n%sulockdep ERROR: " MERGE_MESSAGE " [cross-run-cycle]\n", rule);
    sbuf_puts(b, "------------------------------------------------------------------\n"
                 "no single process took these locks in a deadlocking order, but the\n"
                 "orders recorded by these processes, together, can deadlock:\n");
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
        sbuf_putc(b, '\n');
    }
    sbuf_puts(b, rule);
}

/* Kind + sorted class keys, hashed as lib/report.c hashes report signatures. */
static void signature(struct sbuf *b, const char *sorted_keys)
{
    uint64_t h = fnv_str(FNV_INIT, "cross-run-cycle");
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
    signature(&sig, key);
    jv_set(r, "kind", jv_string("cross-run-cycle"));
    jv_set(r, "severity", jv_string("error"));
    jv_set(r, "message", jv_string(MERGE_MESSAGE));
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

static void union_cycle(void *arg, const struct lg_edge *edges, int n)
{
    struct merge_ctx *m = arg;
    char *key = lg_cycle_key(m->st, edges, n);
    if (strmap_get(&m->single, key) < 0 && strmap_get(&m->reported, key) < 0) {
        strmap_put(&m->reported, key, 1);
        reports_add(m->out, cycle_report(m, edges, n, key));
    }
    free(key);
}

static void find_cross_run_cycles(const struct lg_store *st, struct report_set *out)
{
    struct merge_ctx m = {.st = st, .out = out};
    index_records(&m);
    for (size_t i = 0; i < st->ninputs; i++)
        lg_cycles(st, (int)i, single_cycle, &m);
    lg_cycles(st, -1, union_cycle, &m);
    strmap_free(&m.single);
    strmap_free(&m.reported);
    strmap_free(&m.first_record);
    free(m.counts);
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
    struct pathlist inputs = {0};
    for (int i = optind; i < argc; i++)
        if (pathlist_add(&inputs, argv[i], ".graph") < 0)
            st.io_errors++;
    for (size_t i = 0; i < inputs.n; i++)
        lg_load(&st, inputs.paths[i]);
    struct report_set s = {0};
    find_cross_run_cycles(&st, &s);
    s.io_errors = st.io_errors;
    s.bad_lines = st.bad_lines;
    s.files = (long)st.ninputs;
    char context[128];
    snprintf(context, sizeof(context), " from %zu graph dump%s (%zu lock classes)", st.ninputs,
             st.ninputs == 1 ? "" : "s", st.nclasses);
    o.context = context;
    int status = emit_reports(&s, &o);
    reports_free(&s);
    lg_free(&st);
    pathlist_free(&inputs);
    return status;
}
