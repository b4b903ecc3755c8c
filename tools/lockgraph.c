/*
 * lockgraph.c - loading lock-class graph dumps into one bounded store (see
 * lockgraph.h): classes interned by their stable key, edges united as they
 * are read, each file's own cycles searched when the file ends and kept as
 * class sets only.  Writing a store back as a dump is in lockgraph_write.c;
 * the cycle search in cycles.c.  Single-threaded.
 */
#include "lockgraph.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {"EN", "ER", "SN", "SR"};

void lg_types_text(struct sbuf *b, unsigned types)
{
    int first = 1;
    for (int i = 0; i < 4; i++)
        if (types & (1u << i)) {
            sbuf_printf(b, "%s%s", first ? "" : ",", type_names[i]);
            first = 0;
        }
}

int lg_class_single(const struct lg_class *c)
{
    const char *site = jv_get_str(c->obj, "site");
    return (site && !strcmp(site, "static")) || c->live == 1;
}

/* As lib/model/graph.c: types united, gates intersected (the first recording sets them). */
void lg_edge_unite(struct lg_edge *into, unsigned types, const uint32_t *gates, int ngates)
{
    if (!into->types) {
        into->types = types;
        into->ngates = ngates < LG_MAX_GATES ? ngates : LG_MAX_GATES;
        memcpy(into->gates, gates, (size_t)into->ngates * sizeof(*gates));
        return;
    }
    into->types |= types;
    int kept = 0;
    for (int i = 0; i < into->ngates; i++)
        for (int j = 0; j < ngates; j++)
            if (into->gates[i] == gates[j]) {
                into->gates[kept++] = into->gates[i];
                break;
            }
    into->ngates = kept;
}

/* Index of the class with this key, created (named after its key) if new. */
static int intern(struct lg_store *st, const char *key)
{
    long idx = strmap_get(&st->class_index, key);
    if (idx >= 0)
        return (int)idx;
    xgrow(&st->classes, &st->capclasses, st->nclasses + 1, sizeof(struct lg_class));
    struct lg_class *c = &st->classes[st->nclasses];
    memset(c, 0, sizeof(*c));
    c->key = xstrdup(key);
    c->name = xstrdup(key);
    strmap_put(&st->class_index, key, (long)st->nclasses);
    return (int)st->nclasses++;
}

/* A "class" line: names the class (the first naming wins). Takes obj. */
static const char *add_class(struct lg_store *st, struct jv *obj)
{
    const char *key = jv_get_str(obj, "key");
    const char *name = jv_get_str(obj, "name");
    if (!key || !*key) {
        jv_free(obj);
        return "class without a \"key\" string";
    }
    int idx = intern(st, key); /* may move st->classes */
    struct lg_class *c = &st->classes[idx];
    const char *site = jv_get_str(obj, "site");
    long live = jv_int(jv_get(obj, "max_live"), site && !strcmp(site, "static") ? 1 : 0);
    if (live > 0) { /* repeated lines of one class: the most seen */
        if (c->file_gen != st->gen || c->file_live < live)
            c->file_live = live;
        c->file_gen = st->gen;
    }
    if (c->obj) {
        jv_free(obj);
        return NULL;
    }
    if (name && *name) {
        free(c->name);
        c->name = xstrdup(name);
    }
    c->obj = obj;
    return NULL;
}

static const char *parse_types(const struct jv *arr, unsigned *out)
{
    *out = 0;
    if (!jv_is(arr, J_ARRAY) || !arr->n)
        return "edge without a \"types\" array";
    for (size_t i = 0; i < arr->n; i++) {
        const char *t = jv_str(jv_at(arr, i));
        int k = 0;
        while (k < 4 && (!t || strcmp(t, type_names[k])))
            k++;
        if (k == 4)
            return "edge type is not one of EN, ER, SN, SR";
        *out |= 1u << k;
    }
    return NULL;
}

static int origin_of(struct lg_store *st, const char *file, const char *program, long pid)
{
    struct sbuf k = {0};
    sbuf_printf(&k, "%ld\n%s\n%s", pid, file, program);
    long idx = strmap_get(&st->origin_index, sbuf_cstr(&k));
    if (idx < 0) {
        xgrow(&st->origins, &st->caporigins, st->norigins + 1, sizeof(struct lg_origin));
        st->origins[st->norigins] = (struct lg_origin){xstrdup(file), xstrdup(program), pid};
        idx = strmap_put(&st->origin_index, sbuf_cstr(&k), (long)st->norigins++);
    }
    sbuf_free(&k);
    return (int)idx;
}

/* One file being read. */
struct loader {
    struct lg_store *st;
    const char *path;
    char *program;
    long pid;
    long lineno;
    long errors;     /* malformed lines in this file */
    int seen;        /* the header line was read */
    int stop;        /* the rest of the file is skipped */
    int baseline;    /* its edges are the baseline's */
    long merged;     /* a merged dump: the dumps it stands for; else 0 */
    long incomplete; /* a merged dump: its incomplete dumps */
    int incremental; /* written as the process ran: ends with an "end" record */
    int ended;
};

/* The union edge from -> to, created if new. */
static struct lg_uedge *uedge(struct loader *ld, int from, int to, const struct jv *obj)
{
    struct lg_store *st = ld->st;
    struct sbuf k = {0};
    sbuf_printf(&k, "%d>%d", from, to);
    long idx = strmap_get(&st->edge_index, sbuf_cstr(&k));
    if (idx < 0) {
        xgrow(&st->edges, &st->capedges, st->nedges + 1, sizeof(struct lg_uedge));
        struct lg_uedge *u = &st->edges[st->nedges];
        memset(u, 0, sizeof(*u));
        u->e.from = from;
        u->e.to = to;
        const char *file = jv_get_str(obj, "file"); /* a merged dump keeps the first recorder */
        u->origin = file ? origin_of(st, file, jv_get_str(obj, "program") ? jv_get_str(obj, "program") : "",
                                     jv_int(jv_get(obj, "pid"), -1))
                         : origin_of(st, ld->path, ld->program, ld->pid);
        u->from_at = jv_clone(jv_get(obj, "from_acquired_at"));
        u->stack = jv_clone(jv_get(obj, "stack"));
        idx = strmap_put(&st->edge_index, sbuf_cstr(&k), (long)st->nedges++);
    }
    sbuf_free(&k);
    return &st->edges[idx];
}

static void touch(struct lg_store *st, int cls)
{
    if (st->classes[cls].touched_gen == st->gen)
        return;
    st->classes[cls].touched_gen = st->gen;
    xgrow(&st->touched, &st->captouched, st->ntouched + 1, sizeof(int));
    st->touched[st->ntouched++] = cls;
}

/* An "edge" line. */
static const char *add_edge(struct loader *ld, const struct jv *obj)
{
    struct lg_store *st = ld->st;
    const char *from = jv_get_str(obj, "from"), *to = jv_get_str(obj, "to");
    const struct jv *gates = jv_get(obj, "gates");
    struct lg_edge rec = {0};
    if (!from || !to || !*from || !*to)
        return "edge without \"from\" and \"to\" keys";
    const char *why = parse_types(jv_get(obj, "types"), &rec.types);
    if (why)
        return why;
    if (gates && !jv_is(gates, J_ARRAY))
        return "edge \"gates\" is not an array";
    for (size_t i = 0; i < jv_len(gates); i++) {
        if (!jv_str(jv_at(gates, i)))
            return "edge gate is not a string";
        if (rec.ngates < LG_MAX_GATES)
            rec.gates[rec.ngates++] = (uint32_t)intern(st, jv_str(jv_at(gates, i))) + 1;
    }
    rec.from = intern(st, from);
    rec.to = intern(st, to);
    if (rec.from == rec.to) /* same class: the validator judges those by instance */
        return NULL;
    struct lg_uedge *u = uedge(ld, rec.from, rec.to, obj);
    if (u->seen_gen != st->gen) { /* an edge written again as it changed counts once */
        u->seen_gen = st->gen;
        u->recordings += ld->merged ? jv_int(jv_get(obj, "recordings"), 1) : 1;
    }
    lg_edge_unite(&u->e, rec.types, rec.gates, rec.ngates);
    if (ld->baseline)
        lg_edge_unite(&u->base, rec.types, rec.gates, rec.ngates);
    else
        u->in_run = 1;
    touch(st, rec.from);
    touch(st, rec.to);
    if (!ld->merged) {
        xgrow(&st->file_edges, &st->capfile_edges, st->nfile_edges + 1, sizeof(rec));
        st->file_edges[st->nfile_edges++] = rec;
    }
    return NULL;
}

/* A "cycle" line of a merged dump: a class set one process showed by itself. */
static const char *add_cycle(struct loader *ld, const struct jv *obj)
{
    const struct jv *keys = jv_get(obj, "classes");
    if (!ld->merged)
        return "a cycle line in a dump that is not merged";
    if (!jv_is(keys, J_ARRAY) || !keys->n || keys->n > LG_MAX_CYCLE + 1)
        return "cycle without a \"classes\" array";
    struct lg_edge edges[LG_MAX_CYCLE + 1];
    for (size_t i = 0; i < keys->n; i++) {
        if (!jv_str(jv_at(keys, i)))
            return "cycle class is not a string";
        edges[i].from = intern(ld->st, jv_str(jv_at(keys, i)));
    }
    char *key = lg_cycle_key(ld->st, edges, (int)keys->n);
    strmap_put(&ld->st->single, key, 1);
    free(key);
    return NULL;
}

static void add_pid(struct lg_store *st, long pid)
{
    if (pid < 0)
        return;
    xgrow(&st->pids, &st->cappids, st->npids + 1, sizeof(long));
    st->pids[st->npids++] = pid;
    st->pids_sorted = 0;
}

/* The header line: {"type":"ulockdep-graph","version":1,...}. */
static const char *header(struct loader *ld, const struct jv *obj)
{
    const char *type = jv_get_str(obj, "type");
    if (!type || strcmp(type, "ulockdep-graph"))
        return jv_get_str(obj, "kind")
                   ? "reports, not a graph dump (read them with `ulockdep report`)"
                   : "not a ulockdep graph dump (the first line is not its header)";
    if (jv_int(jv_get(obj, "version"), -1) != 1)
        return "unsupported graph dump version (this tool reads version 1)";
    const char *prog = jv_get_str(obj, "program");
    free(ld->program);
    ld->program = xstrdup(prog ? prog : "");
    ld->pid = jv_int(jv_get(obj, "pid"), -1);
    ld->merged = jv_int(jv_get(obj, "merged"), 0);
    ld->incomplete = ld->merged > 0 ? jv_int(jv_get(obj, "incomplete"), 0) : 0;
    ld->incremental = jv_is(jv_get(obj, "incremental"), J_TRUE);
    const struct jv *pids = jv_get(obj, "pids");
    for (size_t i = 0; ld->merged > 0 && i < jv_len(pids); i++)
        add_pid(ld->st, jv_int(jv_at(pids, i), -1));
    if (ld->merged <= 0)
        add_pid(ld->st, ld->pid);
    return NULL;
}

#define ERRORS_SHOWN 10 /* per file; then one line says how many more */

static void problem(struct loader *ld, const char *why)
{
    if (ld->stop) {
        tool_error("%s:%ld: %s; file skipped", ld->path, ld->lineno, why);
        ld->st->io_errors++;
        return;
    }
    ld->st->bad_lines++;
    if (++ld->errors <= ERRORS_SHOWN)
        tool_error("%s:%ld: %s; line skipped", ld->path, ld->lineno, why);
}

static void load_line(struct loader *ld, const char *line, size_t len)
{
    struct json_error err;
    struct jv *obj = json_parse(line, len, &err);
    const char *why = NULL, *type = obj ? jv_get_str(obj, "type") : NULL;
    char what[160];
    if (!obj) {
        snprintf(what, sizeof(what), "invalid JSON at column %zu: %s", err.offset + 1, err.msg);
        ld->stop = !ld->seen; /* no header: not a graph dump */
        problem(ld, what);
        return;
    }
    if (!ld->seen) {
        why = header(ld, obj);
        ld->stop = why != NULL;
        ld->seen = 1;
    } else if (type && !strcmp(type, "class")) {
        why = add_class(ld->st, obj);
        obj = NULL;
    } else if (type && !strcmp(type, "edge")) {
        why = add_edge(ld, obj);
    } else if (type && !strcmp(type, "cycle")) {
        why = add_cycle(ld, obj);
    } else if (type && !strcmp(type, "end")) {
        ld->ended = 1;
    } else {
        why = "not a class, edge, cycle or end line";
    }
    if (why)
        problem(ld, why);
    jv_free(obj);
}

static void single_cycle(void *arg, const struct lg_edge *edges, int n)
{
    struct lg_store *st = arg;
    char *key = lg_cycle_key(st, edges, n);
    strmap_put(&st->single, key, 1);
    free(key);
}

static long live_combined(long a, long b)
{
    if (a == LG_LIVE_UNKNOWN || b == LG_LIVE_UNKNOWN)
        return LG_LIVE_UNKNOWN;
    return a > b ? a : b;
}

/* The file is read: its cycles, its classes' instance counts, its counters. */
static void finish_file(struct loader *ld)
{
    struct lg_store *st = ld->st;
    if (!ld->merged)
        lg_cycles(st, st->file_edges, st->nfile_edges, single_cycle, st);
    for (size_t i = 0; i < st->ntouched; i++) {
        struct lg_class *c = &st->classes[st->touched[i]];
        long live = c->file_gen == st->gen && c->file_live > 0 ? c->file_live : LG_LIVE_UNKNOWN;
        c->live = c->live ? live_combined(c->live, live) : live;
    }
    st->ndumps += ld->merged > 0 ? ld->merged : 1;
    st->incomplete += ld->merged > 0 ? ld->incomplete : ld->incremental && !ld->ended;
}

int lg_load(struct lg_store *st, const char *path, int baseline)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        st->io_errors++;
        return -1;
    }
    st->gen++;
    st->ninputs++;
    st->nfile_edges = 0;
    st->ntouched = 0;
    struct loader ld = {.st = st, .path = path, .program = xstrdup(""), .pid = -1,
                        .baseline = baseline};
    char *line = NULL;
    size_t cap = 0;
    for (ssize_t n; !ld.stop && (n = read_line_capped(f, &line, &cap, tool_line_max())) != -1;) {
        if (n == -2) {
            tool_error("%s:%ld: line longer than %zu bytes; rest of the file skipped", path,
                       ld.lineno + 1, tool_line_max());
            st->io_errors++;
            break;
        }
        size_t len = (size_t)n;
        ld.lineno++;
        while (len && strchr("\r\n \t", line[len - 1]))
            len--;
        if (len)
            load_line(&ld, line, len);
    }
    if (ld.errors > ERRORS_SHOWN)
        tool_error("%s: %ld more malformed lines skipped", path, ld.errors - ERRORS_SHOWN);
    if (!ld.seen && !ld.stop) {
        tool_error("%s: empty graph dump (no header); file skipped", path);
        st->io_errors++;
    } else if (ferror(f)) {
        tool_error("%s: read error", path);
        st->io_errors++;
    }
    if (ld.seen && !ld.stop)
        finish_file(&ld);
    free(ld.program);
    free(line);
    fclose(f);
    return 0;
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

int lg_has_pid(struct lg_store *st, long pid)
{
    if (!st->pids_sorted) {
        qsort(st->pids, st->npids, sizeof(long), by_long);
        st->pids_sorted = 1;
    }
    return st->npids && bsearch(&pid, st->pids, st->npids, sizeof(long), by_long) != NULL;
}

void lg_free(struct lg_store *st)
{
    for (size_t i = 0; i < st->nclasses; i++) {
        free(st->classes[i].key);
        free(st->classes[i].name);
        jv_free(st->classes[i].obj);
    }
    for (size_t i = 0; i < st->nedges; i++) {
        jv_free(st->edges[i].from_at);
        jv_free(st->edges[i].stack);
    }
    for (size_t i = 0; i < st->norigins; i++) {
        free(st->origins[i].file);
        free(st->origins[i].program);
    }
    free(st->classes);
    free(st->edges);
    free(st->origins);
    free(st->pids);
    free(st->file_edges);
    free(st->touched);
    strmap_free(&st->class_index);
    strmap_free(&st->edge_index);
    strmap_free(&st->origin_index);
    strmap_free(&st->single);
    memset(st, 0, sizeof(*st));
}
