/*
 * output.c - text, JSON Lines and GitHub outputs, and the driver shared by
 * `ulockdep report` and `ulockdep merge` (see output.h).  SARIF is in
 * sarif.c.  Single-threaded.
 */
#include "output.h"

#include "commands.h"
#include "suppress.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One option of report and merge; returns 1 if taken, -1 after an error line. */
static int emit_option(struct emit_opts *o, int opt, const char *arg)
{
    static const char *const names[] = {"text", "json", "sarif", "github", "html"};
    switch (opt) {
    case 'f':
        for (int i = 0; i < 5; i++)
            if (!strcmp(arg, names[i])) {
                o->fmt = (enum out_format)i;
                return 1;
            }
        tool_error("%s: unknown format '%s' (text, json, sarif, github or html)", o->command,
                   arg);
        return -1;
    case 'O':
        o->output = arg;
        return 1;
    case 's':
        if (o->nsupp == (int)(sizeof(o->supp) / sizeof(o->supp[0]))) {
            tool_error("%s: too many --suppressions files", o->command);
            return -1;
        }
        o->supp[o->nsupp++] = arg;
        return 1;
    case 'g':
        o->gen = 1;
        return 1;
    case 'S':
        o->source_root = arg;
        return 1;
    }
    if ((opt == 'W' || opt == 'B') && strcmp(o->command, "merge")) {
        tool_error("%s: --write-graph and --baseline are options of merge", o->command);
        return -1;
    }
    switch (opt) {
    case 'W':
        o->write_graph = arg;
        return 1;
    case 'B':
        if (o->nbaseline == (int)(sizeof(o->baseline) / sizeof(o->baseline[0]))) {
            tool_error("%s: too many --baseline files", o->command);
            return -1;
        }
        o->baseline[o->nbaseline++] = arg;
        return 1;
    }
    return 0;
}

/* Parse options into o; returns -1 on a usage error, 1 for --help, else 0. */
int emit_parse_args(int argc, char **argv, struct emit_opts *o)
{
    static const struct option longopts[] = {
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'O'},
        {"suppressions", required_argument, NULL, 's'},
        {"gen-suppressions", no_argument, NULL, 'g'},
        {"write-graph", required_argument, NULL, 'W'},
        {"baseline", required_argument, NULL, 'B'},
        {"source-root", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static char name[32];
    snprintf(name, sizeof(name), "ulockdep %s", o->command);
    argv[0] = name; /* getopt's messages: "ulockdep report: unrecognized option" */
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (opt == 'h')
            return 1;
        int r = emit_option(o, opt, optarg);
        if (r <= 0) {
            tool_error("see `ulockdep help %s`", o->command);
            return -1;
        }
    }
    return 0;
}

/* ---- text ------------------------------------------------------------------ */

static void pids_line(struct sbuf *b, const struct report *rep)
{
    if (!rep->npids)
        return;
    sbuf_printf(b, "  [reported by %s", rep->npids == 1 ? "pid" : "");
    if (rep->npids > 1)
        sbuf_printf(b, "%zu processes: pids", rep->npids);
    for (size_t i = 0; i < rep->npids; i++)
        sbuf_printf(b, "%s %ld", i ? "," : "", rep->pids[i]);
    sbuf_puts(b, "]\n");
}

void out_text(struct sbuf *b, const struct report_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct report *rep = &s->items[i];
        if (rep->suppressed)
            continue;
        const char *text = jv_get_str(rep->obj, "text");
        if (text && *text) {
            sbuf_puts(b, text);
            if (text[strlen(text) - 1] != '\n')
                sbuf_putc(b, '\n');
        } else {
            report_render(b, rep->obj);
        }
        pids_line(b, rep);
        sbuf_putc(b, '\n');
    }
}

/* ---- JSON Lines ------------------------------------------------------------- */

void out_json(struct sbuf *b, struct report_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        struct report *rep = &s->items[i];
        if (rep->suppressed)
            continue;
        struct jv *procs = jv_array();
        for (size_t j = 0; j < rep->npids; j++)
            jv_push(procs, jv_long(rep->pids[j]));
        jv_set(rep->obj, "processes", procs);
        jv_write(b, rep->obj, 0);
        sbuf_putc(b, '\n');
    }
}

/* ---- GitHub workflow commands --------------------------------------------------- */

void github_escape(struct sbuf *b, const char *s, int property)
{
    for (; *s; s++) {
        switch (*s) {
        case '%':
            sbuf_puts(b, "%25");
            break;
        case '\r':
            sbuf_puts(b, "%0D");
            break;
        case '\n':
            sbuf_puts(b, "%0A");
            break;
        case ':':
            sbuf_puts(b, property ? "%3A" : ":");
            break;
        case ',':
            sbuf_puts(b, property ? "%2C" : ",");
            break;
        default:
            sbuf_putc(b, *s);
        }
    }
}

void out_github(struct sbuf *b, const struct report_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct report *rep = &s->items[i];
        if (rep->suppressed)
            continue;
        const struct jv *site = report_site(rep->obj);
        sbuf_printf(b, "::%s ", report_is_error(rep->obj) ? "error" : "warning");
        if (site) {
            long line = jv_int(jv_get(site, "line"), 0);
            sbuf_puts(b, "file=");
            github_escape(b, path_relative(jv_get_str(site, "file")), 1);
            if (line > 0)
                sbuf_printf(b, ",line=%ld", line);
            sbuf_putc(b, ',');
        }
        struct sbuf title = {0}, msg = {0};
        sbuf_printf(&title, "ulockdep %s", report_kind(rep->obj));
        report_headline(&msg, rep->obj);
        sbuf_puts(b, "title=");
        github_escape(b, sbuf_cstr(&title), 1);
        sbuf_puts(b, "::");
        github_escape(b, sbuf_cstr(&msg), 0);
        sbuf_putc(b, '\n');
        sbuf_free(&title);
        sbuf_free(&msg);
    }
}

void report_fingerprint(struct sbuf *b, const struct report *rep)
{
    const char *sig = jv_get_str(rep->obj, "signature");
    if (sig && *sig)
        sbuf_puts(b, sig);
    else
        sbuf_printf(b, "%" PRIx64, fnv_str(FNV_INIT, rep->key));
}

/* ---- the driver ------------------------------------------------------------------ */

static void summary(struct sbuf *b, const struct report_set *s, const struct emit_opts *o)
{
    long errors = 0, warnings = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->items[i].suppressed)
            continue;
        if (report_is_error(s->items[i].obj))
            errors++;
        else
            warnings++;
    }
    long total = errors + warnings;
    sbuf_printf(b, "ulockdep %s: %ld report%s (%ld error%s, %ld warning%s)%s", o->command, total,
                total == 1 ? "" : "s", errors, errors == 1 ? "" : "s", warnings,
                warnings == 1 ? "" : "s", o->context ? o->context : "");
    if (s->suppressed)
        sbuf_printf(b, "; %ld suppressed", s->suppressed);
    if (s->bad_lines)
        sbuf_printf(b, "; %ld malformed line%s skipped", s->bad_lines,
                    s->bad_lines == 1 ? "" : "s");
    if (s->io_errors)
        sbuf_printf(b, "; %ld input%s unreadable", s->io_errors, s->io_errors == 1 ? "" : "s");
    sbuf_putc(b, '\n');
}

static int write_output(const struct sbuf *b, const char *path)
{
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = b->len ? fwrite(b->s, 1, b->len, f) : 0;
    int bad = n != b->len || fflush(f) != 0 || ferror(f);
    if (path && fclose(f) != 0)
        bad = 1;
    if (bad)
        tool_error("%s: write error", path ? path : "standard output");
    return bad ? -1 : 0;
}

static int load_suppressions(const struct emit_opts *o, struct supp_list *l)
{
    for (int i = 0; i < o->nsupp; i++)
        if (supp_load(l, o->supp[i]) < 0)
            return -1;
    return 0;
}

int emit_reports(struct report_set *s, const struct emit_opts *o)
{
    struct supp_list supp = {0};
    if (load_suppressions(o, &supp) < 0) {
        supp_free(&supp);
        return 2;
    }
    supp_apply(&supp, s);
    supp_free(&supp);
    struct sbuf out = {0}, sum = {0};
    summary(&sum, s, o);
    if (o->gen)
        supp_generate(&out, s);
    else if (o->fmt == FMT_TEXT)
        out_text(&out, s);
    else if (o->fmt == FMT_JSON)
        out_json(&out, s);
    else if (o->fmt == FMT_SARIF)
        out_sarif(&out, s, o->source_root);
    else if (o->fmt == FMT_HTML)
        out_html(&out, s, sbuf_cstr(&sum));
    else
        out_github(&out, s);
    if (o->fmt == FMT_TEXT && !o->gen)
        sbuf_puts(&out, sbuf_cstr(&sum));
    else
        fputs(sbuf_cstr(&sum), stderr);
    int failed = write_output(&out, o->output);
    sbuf_free(&out);
    sbuf_free(&sum);
    int errors = 0;
    for (size_t i = 0; i < s->n; i++)
        errors |= !s->items[i].suppressed && report_is_error(s->items[i].obj);
    if (failed)
        return 2;
    if (errors && !o->gen)
        return 1;
    return s->io_errors || s->bad_lines ? 2 : 0;
}
