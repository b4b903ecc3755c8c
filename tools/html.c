/*
 * html.c - `--format html`: one self-contained page for a CI artifact (no
 * network, no script): a summary table (kind, locks, first frame,
 * processes), then each report with its cycle drawn as inline SVG
 * (Graphviz's `dot` when it is installed, else a circle layout of our own)
 * and its stacks folded under each edge, with the source line when the file
 * is readable here.  Single-threaded.
 */
#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void esc(struct sbuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': sbuf_puts(b, "&lt;"); break;
        case '>': sbuf_puts(b, "&gt;"); break;
        case '&': sbuf_puts(b, "&amp;"); break;
        case '"': sbuf_puts(b, "&quot;"); break;
        default: sbuf_putc(b, *s);
        }
    }
}

/* Line `line` of `file`, trimmed, when the file can be read here. */
static int source_line(struct sbuf *b, const char *file, long line)
{
    FILE *f = file && line > 0 ? fopen(file, "r") : NULL;
    if (!f)
        return 0;
    char buf[1024];
    long n = 0;
    int found = 0;
    while (fgets(buf, sizeof(buf), f))
        if (++n == line) {
            buf[strcspn(buf, "\r\n")] = '\0';
            const char *p = buf + strspn(buf, " \t");
            esc(b, p);
            found = 1;
            break;
        }
    fclose(f);
    return found;
}

static void frame_html(struct sbuf *b, const struct jv *frame)
{
    struct sbuf t = {0}, src = {0};
    frame_text(&t, frame);
    sbuf_puts(b, "<li><code>");
    esc(b, sbuf_cstr(&t));
    sbuf_puts(b, "</code>");
    if (source_line(&src, jv_get_str(frame, "file"), jv_int(jv_get(frame, "line"), 0)))
        sbuf_printf(b, "<pre class=\"src\">%s</pre>", sbuf_cstr(&src));
    sbuf_puts(b, "</li>\n");
    sbuf_free(&t);
    sbuf_free(&src);
}

/* ---- the cycle as SVG ----------------------------------------------------------- */

static void dot_quoted(struct sbuf *b, const char *s)
{
    sbuf_putc(b, '"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            sbuf_putc(b, '\\');
        sbuf_putc(b, *s);
    }
    sbuf_putc(b, '"');
}

/* Graphviz's layout when `dot` is installed: 0 if it was not usable. */
static int svg_dot(struct sbuf *b, const struct jv *cycle)
{
    if (access("/usr/bin/dot", X_OK) != 0)
        return 0;
    char path[] = "/tmp/ulockdep-html-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    struct sbuf src = {0};
    sbuf_puts(&src, "digraph cycle { node [shape=box, fontname=\"monospace\"];\n");
    for (size_t i = 0; i < jv_len(cycle); i++) {
        dot_quoted(&src, jv_get_str(jv_at(cycle, i), "from_name"));
        sbuf_puts(&src, " -> ");
        dot_quoted(&src, jv_get_str(jv_at(cycle, i), "to_name"));
        sbuf_puts(&src, " [color=red];\n");
    }
    sbuf_puts(&src, "}\n");
    int ok = write(fd, src.s, src.len) == (ssize_t)src.len;
    close(fd);
    sbuf_free(&src);
    struct sbuf cmd = {0}, out = {0};
    sbuf_printf(&cmd, "/usr/bin/dot -Tsvg %s 2>/dev/null", path);
    FILE *p = ok ? popen(sbuf_cstr(&cmd), "r") : NULL;
    char buf[4096];
    for (size_t n; p && (n = fread(buf, 1, sizeof(buf), p)) > 0;)
        sbuf_putn(&out, buf, n);
    ok = p && pclose(p) == 0;
    unlink(path);
    const char *svg = ok ? strstr(sbuf_cstr(&out), "<svg") : NULL;
    if (svg)
        sbuf_puts(b, svg);
    sbuf_free(&cmd);
    sbuf_free(&out);
    return svg != NULL;
}

/* Our own layout: the cycle's locks on a circle, an arrow per edge. */
static void svg_builtin(struct sbuf *b, const struct jv *cycle)
{
    size_t n = jv_len(cycle);
    double r = n < 3 ? 90 : 45.0 * (double)n / 3.14159 + 60, cx = r + 130, cy = r + 40;
    sbuf_printf(b,
                "<svg class=\"cycle\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                "height=\"%.0f\"><defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" "
                "refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path "
                "d=\"M0,0 L10,5 L0,10 z\" fill=\"#c00\"/></marker></defs>\n",
                2 * cx, 2 * cy);
    for (size_t i = 0; i < n; i++) {
        double a0 = 2 * M_PI * (double)i / (double)n - M_PI / 2;
        double a1 = 2 * M_PI * (double)((i + 1) % n) / (double)n - M_PI / 2;
        double x0 = cx + r * cos(a0), y0 = cy + r * sin(a0);
        double x1 = cx + r * cos(a1), y1 = cy + r * sin(a1);
        double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
        double k = len > 40 ? 18 / len : 0; /* stop short of the labels */
        sbuf_printf(b,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
                    "stroke-width=\"2\" marker-end=\"url(#arrow)\"/>\n",
                    x0 + dx * k, y0 + dy * k, x1 - dx * k, y1 - dy * k);
    }
    for (size_t i = 0; i < n; i++) {
        double a = 2 * M_PI * (double)i / (double)n - M_PI / 2;
        sbuf_printf(b,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                    "font-family=\"monospace\" font-size=\"13\">",
                    cx + r * cos(a), cy + r * sin(a) + 4);
        esc(b, jv_get_str(jv_at(cycle, i), "from_name"));
        sbuf_puts(b, "</text>\n");
    }
    sbuf_puts(b, "</svg>\n");
}

/* ---- the page -------------------------------------------------------------------- */

static const char style[] =
    "body{font-family:sans-serif;margin:2em;max-width:70em}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;"
    "text-align:left}.error{color:#b00}.warning{color:#a60}"
    "section.report{border-top:2px solid #ddd;margin-top:2em}"
    "pre.src{margin:.2em 0 .2em 2em;color:#555}details{margin:.4em 0}"
    "pre.text{background:#f6f6f6;padding:1em;overflow:auto}";

static void summary_row(struct sbuf *b, const struct report *rep, size_t idx)
{
    const struct jv *r = rep->obj;
    const char *names[64];
    size_t n = report_names(r, names, 64);
    const char *sev = report_is_error(r) ? "error" : "warning";
    sbuf_printf(b, "<tr class=\"%s\"><td><a href=\"#r%zu\">%zu</a></td><td>", sev, idx, idx);
    esc(b, report_kind(r));
    sbuf_printf(b, " (%s)</td><td>", sev);
    for (size_t i = 0; i < n && i < 64; i++) {
        sbuf_puts(b, i ? ", " : "");
        esc(b, names[i]);
    }
    sbuf_puts(b, "</td><td><code>");
    struct sbuf t = {0};
    const struct jv *site = report_site(r);
    if (site)
        frame_text(&t, site);
    esc(b, sbuf_cstr(&t));
    sbuf_free(&t);
    sbuf_puts(b, "</code></td><td>");
    for (size_t i = 0; i < rep->npids; i++)
        sbuf_printf(b, "%s%ld", i ? ", " : "", rep->pids[i]);
    sbuf_puts(b, "</td></tr>\n");
}

static void edge_html(struct sbuf *b, const struct jv *r, const struct jv *e)
{
    struct sbuf label = {0};
    edge_label(&label, r, e);
    sbuf_puts(b, "<details class=\"edge\"><summary>");
    esc(b, sbuf_cstr(&label));
    sbuf_puts(b, "</summary><ol class=\"stack\">\n");
    const struct jv *from_at = jv_get(e, "from_acquired_at");
    if (jv_is(from_at, J_OBJECT)) {
        sbuf_puts(b, "<li class=\"from\">first lock taken at: ");
        frame_html(b, from_at);
        sbuf_puts(b, "</li>\n");
    }
    const struct jv *stack = jv_get(e, "stack");
    for (size_t i = 0; i < jv_len(stack); i++)
        frame_html(b, jv_at(stack, i));
    sbuf_puts(b, "</ol></details>\n");
    sbuf_free(&label);
}

static void report_html(struct sbuf *b, const struct report *rep, size_t idx)
{
    const struct jv *r = rep->obj, *cycle = jv_get(r, "cycle");
    struct sbuf head = {0};
    report_headline(&head, r);
    sbuf_printf(b, "<section class=\"report\" id=\"r%zu\" data-kind=\"", idx);
    esc(b, report_kind(r));
    sbuf_printf(b, "\"><h2 class=\"%s\">%zu. ", report_is_error(r) ? "error" : "warning", idx);
    esc(b, report_kind(r));
    sbuf_puts(b, "</h2><p>");
    esc(b, sbuf_cstr(&head));
    sbuf_puts(b, "</p>\n");
    if (jv_len(cycle) > 0) {
        if (!svg_dot(b, cycle))
            svg_builtin(b, cycle);
        for (size_t i = 0; i < jv_len(cycle); i++)
            edge_html(b, r, jv_at(cycle, i));
    } else if (jv_len(jv_get(r, "stack"))) {
        sbuf_puts(b, "<details class=\"edge\"><summary>stack</summary><ol class=\"stack\">\n");
        for (size_t i = 0; i < jv_len(jv_get(r, "stack")); i++)
            frame_html(b, jv_at(jv_get(r, "stack"), i));
        sbuf_puts(b, "</ol></details>\n");
    }
    const char *text = jv_get_str(r, "text");
    if (text && *text) {
        sbuf_puts(b, "<details><summary>full report</summary><pre class=\"text\">");
        esc(b, text);
        sbuf_puts(b, "</pre></details>\n");
    }
    sbuf_puts(b, "</section>\n");
    sbuf_free(&head);
}

void out_html(struct sbuf *b, const struct report_set *s, const char *summary)
{
    sbuf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                   "<title>ulockdep report</title><style>%s</style></head><body>\n",
                style);
    sbuf_puts(b, "<h1>ulockdep</h1><p class=\"summary\">");
    esc(b, summary);
    sbuf_puts(b, "</p>\n<table class=\"summary\"><tr><th>#</th><th>kind</th><th>locks</th>"
                 "<th>first frame</th><th>processes</th></tr>\n");
    size_t idx = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->items[i].suppressed)
            summary_row(b, &s->items[i], ++idx);
    sbuf_puts(b, "</table>\n");
    idx = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->items[i].suppressed)
            report_html(b, &s->items[i], ++idx);
    sbuf_puts(b, "</body></html>\n");
}
