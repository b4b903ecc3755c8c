/*
 * lockgraph_write.c - a store (lockgraph.h) written back as one graph dump
 * (`ulockdep merge --write-graph`).  Besides the union of classes and edges
 * it keeps what merging its inputs again would need, so that merging is
 * associative: each edge's first recorder and its count of recordings, each
 * class's most live instances over the dumps that recorded its edges
 * (`max_live`, absent when some dump did not say), the class sets of the
 * cycles a single process showed by itself ("cycle" lines: not cross-run),
 * and the number of dumps it stands for.  Single-threaded.
 */
#include "lockgraph.h"

#include <stdlib.h>
#include <string.h>

static void put_line(struct sbuf *b, struct jv *o)
{
    jv_write(b, o, 0);
    sbuf_putc(b, '\n');
    jv_free(o);
}

static void write_header(struct sbuf *b, const struct lg_store *st)
{
    struct jv *h = jv_object(), *pids = jv_array();
    jv_set(h, "type", jv_string("ulockdep-graph"));
    jv_set(h, "version", jv_long(1));
    jv_set(h, "pid", jv_null());
    jv_set(h, "program", jv_string("ulockdep merge"));
    jv_set(h, "merged", jv_long(st->ndumps));
    jv_set(h, "incomplete", jv_long(st->incomplete));
    for (size_t i = 0; i < st->npids; i++)
        jv_push(pids, jv_long(st->pids[i]));
    jv_set(h, "pids", pids);
    put_line(b, h);
}

static void write_class(struct sbuf *b, const struct lg_class *c)
{
    struct jv *o = jv_object();
    jv_set(o, "type", jv_string("class"));
    jv_set(o, "key", jv_string(c->key));
    jv_set(o, "name", jv_string(c->name));
    static const char *const kept[] = {"lock_type", "site", "at"};
    for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
        if (jv_get(c->obj, kept[i]))
            jv_set(o, kept[i], jv_clone(jv_get(c->obj, kept[i])));
    if (c->live > 0)
        jv_set(o, "max_live", jv_long(c->live));
    put_line(b, o);
}

static struct jv *types_json(unsigned types)
{
    static const char *const names[] = {"EN", "ER", "SN", "SR"};
    struct jv *a = jv_array();
    for (int i = 0; i < 4; i++)
        if (types & (1u << i))
            jv_push(a, jv_string(names[i]));
    return a;
}

static void write_edge(struct sbuf *b, const struct lg_store *st, const struct lg_uedge *u)
{
    const struct lg_origin *o = &st->origins[u->origin];
    struct jv *e = jv_object(), *gates = jv_array();
    jv_set(e, "type", jv_string("edge"));
    jv_set(e, "from", jv_string(st->classes[u->e.from].key));
    jv_set(e, "to", jv_string(st->classes[u->e.to].key));
    jv_set(e, "types", types_json(u->e.types));
    for (int i = 0; i < u->e.ngates; i++)
        jv_push(gates, jv_string(st->classes[u->e.gates[i] - 1].key));
    jv_set(e, "gates", gates);
    jv_set(e, "from_acquired_at", jv_clone(u->from_at));
    jv_set(e, "stack", jv_clone(u->stack));
    jv_set(e, "recordings", jv_long(u->recordings));
    jv_set(e, "file", jv_string(o->file));
    jv_set(e, "program", jv_string(o->program));
    jv_set(e, "pid", o->pid >= 0 ? jv_long(o->pid) : jv_null());
    put_line(b, e);
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "cycle" lines, sorted: the output does not depend on the hash order. */
static void write_cycles(struct sbuf *b, const struct lg_store *st)
{
    const char **keys = xcalloc(st->single.n + 1, sizeof(char *));
    size_t n = 0;
    for (size_t i = 0; i < st->single.cap; i++)
        if (st->single.keys[i])
            keys[n++] = st->single.keys[i];
    qsort(keys, n, sizeof(keys[0]), by_str);
    for (size_t i = 0; i < n; i++) {
        struct jv *o = jv_object(), *classes = jv_array();
        char *copy = xstrdup(keys[i]), *save = NULL;
        for (char *k = strtok_r(copy, "\n", &save); k; k = strtok_r(NULL, "\n", &save))
            jv_push(classes, jv_string(k));
        free(copy);
        jv_set(o, "type", jv_string("cycle"));
        jv_set(o, "classes", classes);
        put_line(b, o);
    }
    free(keys);
}

void lg_write(struct sbuf *b, const struct lg_store *st)
{
    write_header(b, st);
    for (size_t i = 0; i < st->nclasses; i++)
        write_class(b, &st->classes[i]);
    for (size_t i = 0; i < st->nedges; i++)
        write_edge(b, st, &st->edges[i]);
    write_cycles(b, st);
    struct jv *end = jv_object();
    jv_set(end, "type", jv_string("end"));
    put_line(b, end);
}
