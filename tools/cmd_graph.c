/*
 * cmd_graph.c - `ulockdep graph [--dot] [--output FILE] FILE|DIR...`: the
 * union of lock-class graph dumps as a text summary or as Graphviz, edges on
 * a deadlocking cycle (the validator's rules, cycles.c) in red.
 * Single-threaded.
 */
#include "commands.h"
#include "lockgraph.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct graph_ctx {
    const struct lg_store *st;
    struct strmap cycle_keys; /* class sets already listed */
    struct strmap on_cycle;   /* "from>to" of edges on a cycle */
    struct sbuf cycles;       /* text of the distinct cycles */
    long ncycles;
};

static void edge_key(struct sbuf *b, int from, int to)
{
    sbuf_reset(b);
    sbuf_printf(b, "%d>%d", from, to);
}

static void on_cycle(void *arg, const struct lg_edge *edges, int n)
{
    struct graph_ctx *g = arg;
    struct sbuf k = {0};
    for (int i = 0; i < n; i++) {
        edge_key(&k, edges[i].from, edges[i].to);
        strmap_put(&g->on_cycle, sbuf_cstr(&k), 1);
    }
    sbuf_free(&k);
    char *key = lg_cycle_key(g->st, edges, n);
    if (strmap_get(&g->cycle_keys, key) < 0) {
        strmap_put(&g->cycle_keys, key, 1);
        sbuf_printf(&g->cycles, "  #%ld", ++g->ncycles);
        for (int i = 0; i < n; i++)
            sbuf_printf(&g->cycles, " %s ->", g->st->classes[edges[i].from].name);
        sbuf_printf(&g->cycles, " %s\n", g->st->classes[edges[0].from].name);
    }
    free(key);
}

static void dot_str(struct sbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sbuf_putc(b, '\\');
        if (*s == '\n')
            sbuf_puts(b, "\\n");
        else
            sbuf_putc(b, *s);
    }
}

static void gates_text(struct sbuf *b, const struct lg_store *st, const struct lg_edge *e)
{
    for (int i = 0; i < e->ngates; i++)
        sbuf_printf(b, "%s%s", i ? ", " : "", st->classes[e->gates[i] - 1].name);
}

static void print_dot(struct sbuf *b, struct graph_ctx *g, const struct lg_edge *edges,
                      size_t nedges)
{
    const struct lg_store *st = g->st;
    struct sbuf k = {0};
    sbuf_puts(b,
              "digraph ulockdep {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n");
    for (size_t i = 0; i < st->nclasses; i++) {
        sbuf_printf(b, "  c%zu [label=\"", i);
        dot_str(b, st->classes[i].name);
        sbuf_puts(b, "\\n");
        dot_str(b, st->classes[i].key);
        sbuf_puts(b, "\"];\n");
    }
    for (size_t i = 0; i < nedges; i++) {
        const struct lg_edge *e = &edges[i];
        struct sbuf label = {0};
        lg_types_text(&label, e->types);
        if (e->ngates) {
            sbuf_puts(&label, "\ngates: ");
            gates_text(&label, st, e);
        }
        edge_key(&k, e->from, e->to);
        sbuf_printf(b, "  c%d -> c%d [label=\"", e->from, e->to);
        dot_str(b, sbuf_cstr(&label));
        sbuf_puts(b, strmap_get(&g->on_cycle, sbuf_cstr(&k)) >= 0
                         ? "\", color=red, fontcolor=red, style=bold, penwidth=2];\n"
                         : "\"];\n");
        sbuf_free(&label);
    }
    sbuf_puts(b, "}\n");
    sbuf_free(&k);
}

static void print_text(struct sbuf *b, struct graph_ctx *g, const struct lg_edge *edges,
                       size_t nedges)
{
    const struct lg_store *st = g->st;
    sbuf_printf(b, "ulockdep graph: %zu classes, %zu edges, %ld cycle%s from %ld dump%s\n",
                st->nclasses, nedges, g->ncycles, g->ncycles == 1 ? "" : "s", st->ndumps,
                st->ndumps == 1 ? "" : "s");
    sbuf_puts(b, "classes:\n");
    for (size_t i = 0; i < st->nclasses; i++) {
        const struct lg_class *c = &st->classes[i];
        const char *type = jv_get_str(c->obj, "lock_type"), *site = jv_get_str(c->obj, "site");
        sbuf_printf(b, "  %s [%s]", c->name, c->key);
        if (type || site)
            sbuf_printf(b, " %s%s%s", type ? type : "", type && site ? ", " : "", site ? site : "");
        sbuf_putc(b, '\n');
    }
    sbuf_puts(b, "edges:\n");
    for (size_t i = 0; i < nedges; i++) {
        const struct lg_edge *e = &edges[i];
        sbuf_printf(b, "  %s -> %s [", st->classes[e->from].name, st->classes[e->to].name);
        lg_types_text(b, e->types);
        sbuf_putc(b, ']');
        if (e->ngates) {
            sbuf_puts(b, " gates: ");
            gates_text(b, st, e);
        }
        sbuf_putc(b, '\n');
    }
    sbuf_printf(b, "cycles:%s\n%s", g->ncycles ? "" : " none", sbuf_cstr(&g->cycles));
}

static int write_all(const struct sbuf *b, const char *path)
{
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        return -1;
    }
    int bad = (b->len && fwrite(b->s, 1, b->len, f) != b->len) || fflush(f) != 0;
    if (path)
        bad |= fclose(f) != 0;
    if (bad)
        tool_error("%s: write error", path ? path : "standard output");
    return bad ? -1 : 0;
}

static int render(struct lg_store *st, int dot, const char *output)
{
    struct graph_ctx g = {.st = st};
    size_t nedges = st->nedges;
    struct lg_edge *edges = xcalloc(nedges + 1, sizeof(*edges));
    for (size_t i = 0; i < nedges; i++)
        edges[i] = st->edges[i].e;
    lg_union_cycles(st, on_cycle, &g);
    struct sbuf out = {0};
    if (dot)
        print_dot(&out, &g, edges, nedges);
    else
        print_text(&out, &g, edges, nedges);
    int rc = write_all(&out, output);
    sbuf_free(&out);
    sbuf_free(&g.cycles);
    strmap_free(&g.cycle_keys);
    strmap_free(&g.on_cycle);
    free(edges);
    return rc;
}

int cmd_graph(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"dot", no_argument, NULL, 'd'},
        {"output", required_argument, NULL, 'O'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int dot = 0, opt;
    const char *output = NULL;
    static char name[] = "ulockdep graph";
    argv[0] = name; /* getopt's messages: "ulockdep graph: unrecognized option" */
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (opt == 'd')
            dot = 1;
        else if (opt == 'O')
            output = optarg;
        else if (opt == 'h')
            return help_command("graph", stdout), 0;
        else
            return tool_error("see `ulockdep help graph`"), 2;
    }
    if (optind >= argc) {
        tool_error("graph: no graph dump given (FILE or DIR of *.graph)");
        return 2;
    }
    struct lg_store st = {0};
    struct pathlist inputs = {0};
    for (int i = optind; i < argc; i++)
        if (pathlist_add(&inputs, argv[i], ".graph") < 0)
            st.io_errors++;
    for (size_t i = 0; i < inputs.n; i++)
        lg_load(&st, inputs.paths[i], 0);
    int rc = render(&st, dot, output);
    int status = rc < 0 || st.io_errors || st.bad_lines ? 2 : 0;
    pathlist_free(&inputs);
    lg_free(&st);
    return status;
}
