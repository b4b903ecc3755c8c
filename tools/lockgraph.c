/*
 * lockgraph.c - loading lock-class graph dumps (see lockgraph.h): classes
 * interned by their stable key across all inputs, one record per edge line.
 * The cycle search is in cycles.c.  Single-threaded.
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

/* Index of the class with this key, created (named after its key) if new. */
static int intern(struct lg_store *st, const char *key)
{
    long idx = strmap_get(&st->class_index, key);
    if (idx >= 0)
        return (int)idx;
    xgrow(&st->classes, &st->capclasses, st->nclasses + 1, sizeof(struct lg_class));
    struct lg_class *c = &st->classes[st->nclasses];
    c->key = xstrdup(key);
    c->name = xstrdup(key);
    c->obj = NULL;
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

/* An "edge" line.  Takes obj. */
static const char *add_edge(struct lg_store *st, int input, struct jv *obj)
{
    const char *from = jv_get_str(obj, "from"), *to = jv_get_str(obj, "to");
    const struct jv *gates = jv_get(obj, "gates");
    struct lg_record rec = {.input = input, .obj = obj};
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
    if (rec.from == rec.to) { /* same class: the validator judges those by instance */
        jv_free(obj);
        return NULL;
    }
    xgrow(&st->records, &st->caprecords, st->nrecords + 1, sizeof(rec));
    st->records[st->nrecords++] = rec;
    return NULL;
}

/* The header line: {"type":"ulockdep-graph","version":1,...}. */
static const char *header(struct lg_store *st, const struct jv *obj)
{
    const char *type = jv_get_str(obj, "type");
    if (!type || strcmp(type, "ulockdep-graph"))
        return jv_get_str(obj, "kind")
                   ? "reports, not a graph dump (read them with `ulockdep report`)"
                   : "not a ulockdep graph dump (the first line is not its header)";
    if (jv_int(jv_get(obj, "version"), -1) != 1)
        return "unsupported graph dump version (this tool reads version 1)";
    struct lg_input *in = &st->inputs[st->ninputs - 1];
    const char *prog = jv_get_str(obj, "program");
    free(in->program);
    in->program = xstrdup(prog ? prog : "");
    in->pid = jv_int(jv_get(obj, "pid"), -1);
    return NULL;
}

/* One input file being read. */
struct loader {
    struct lg_store *st;
    const char *path;
    long lineno;
    long errors; /* malformed lines in this file */
    int seen;    /* the header line was read */
    int stop;    /* the rest of the file is skipped */
};

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
        why = header(ld->st, obj);
        ld->stop = why != NULL;
        ld->seen = 1;
    } else if (type && !strcmp(type, "class")) {
        why = add_class(ld->st, obj);
        obj = NULL;
    } else if (type && !strcmp(type, "edge")) {
        why = add_edge(ld->st, (int)ld->st->ninputs - 1, obj);
        obj = why ? obj : NULL;
    } else {
        why = "not a class or edge line";
    }
    if (why)
        problem(ld, why);
    jv_free(obj);
}

int lg_load(struct lg_store *st, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        st->io_errors++;
        return -1;
    }
    xgrow(&st->inputs, &st->capinputs, st->ninputs + 1, sizeof(struct lg_input));
    st->inputs[st->ninputs++] = (struct lg_input){xstrdup(path), xstrdup(""), -1};
    struct loader ld = {st, path, 0, 0, 0, 0};
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
    free(line);
    fclose(f);
    return 0;
}

void lg_free(struct lg_store *st)
{
    for (size_t i = 0; i < st->nclasses; i++) {
        free(st->classes[i].key);
        free(st->classes[i].name);
        jv_free(st->classes[i].obj);
    }
    for (size_t i = 0; i < st->ninputs; i++) {
        free(st->inputs[i].path);
        free(st->inputs[i].program);
    }
    for (size_t i = 0; i < st->nrecords; i++)
        jv_free(st->records[i].obj);
    free(st->classes);
    free(st->inputs);
    free(st->records);
    strmap_free(&st->class_index);
    memset(st, 0, sizeof(*st));
}
