/*
 * suppress.c - suppressions for `ulockdep report` and `ulockdep merge`: the
 * library's parser and matcher (lib/base/suppress.c) applied to JSON reports, and
 * --gen-suppressions.  Single-threaded.
 */
#include "suppress.h"

#include "../lib/base/suppress.h"
#include "kinds.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void on_error(const char *file, int line, const char *why)
{
    if (line)
        tool_error("%s:%d: %s; line ignored", file, line, why);
    else
        tool_error("%s: %s", file, why);
}

/* Count malformed lines too: the library's callback carries no context. */
static long bad_lines;
static void count_error(const char *file, int line, const char *why)
{
    bad_lines++;
    on_error(file, line, why);
}

int supp_load(struct supp_list *l, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        tool_error("suppressions file %s: %s", path, strerror(errno));
        return -1;
    }
    struct sbuf text = {0};
    char chunk[4096];
    for (size_t n; (n = fread(chunk, 1, sizeof(chunk), f)) > 0;)
        sbuf_putn(&text, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        tool_error("suppressions file %s: read error", path);
        sbuf_free(&text);
        return -1;
    }
    bad_lines = 0;
    struct uld_suppression *list =
        uld_supp_parse_n(path, sbuf_cstr(&text), text.len, kind_is_known, count_error);
    sbuf_free(&text);
    l->bad_lines += bad_lines;
    struct uld_suppression **tail = &l->head; /* append: several files may be loaded */
    while (*tail)
        tail = &(*tail)->next;
    *tail = list;
    return 0;
}

void supp_free(struct supp_list *l)
{
    uld_supp_free(l->head);
    l->head = NULL;
}

/* ---- the strings of a report -------------------------------------------- */

struct strvec {
    const char **s;
    size_t n, cap;
};

static void push(struct strvec *v, const char *s)
{
    if (!s)
        return;
    xgrow(&v->s, &v->cap, v->n + 1, sizeof(char *));
    v->s[v->n++] = s;
}

static void push_names(struct strvec *v, const struct jv *arr, const char *field)
{
    for (size_t i = 0; i < jv_len(arr); i++)
        push(v, jv_get_str(jv_at(arr, i), field));
}

static void push_frame(const struct jv *frame, void *ctx)
{
    struct strvec *v = ctx;
    const char *file = jv_get_str(frame, "file");
    push(v, jv_get_str(frame, "function"));
    push(v, file);
    if (file && strchr(file, '/'))
        push(v, path_basename(file));
    push(v, jv_get_str(frame, "module"));
}

/*
 * The report's strings.  The signature comes first, as "signature:<hex>":
 * the one string that names this problem and nothing else, the same in
 * every build of the same source (lib/report/naming.c); --gen-suppressions
 * prefers it.  It is stored after the pointer array, so one free() of
 * *out releases both.
 */
size_t supp_report_strings(const struct jv *r, const char ***out)
{
    struct strvec v = {0};
    const char *sig = jv_get_str(r, "signature");
    if (!strcmp(report_kind(r), "limit-reached"))
        sig = NULL; /* no lock, no frame: never suppressed (docs/reports.md) */
    push(&v, sig && *sig ? "" : NULL); /* placeholder, pointed at the copy below */
    /* then class names (stable across runs, unlike instance names such as
     * "account_new:17#2") */
    push_names(&v, jv_get(r, "locks"), "class");
    push_names(&v, jv_get(r, "classes"), "name");
    push_names(&v, jv_get(r, "locks"), "name");
    report_each_frame(r, push_frame, &v);
    if (sig && *sig) {
        size_t len = strlen("signature:") + strlen(sig) + 1;
        v.s = xrealloc(v.s, v.n * sizeof(char *) + len);
        char *text = (char *)(v.s + v.n);
        snprintf(text, len, "signature:%s", sig);
        v.s[0] = text;
    }
    *out = v.s;
    return v.n;
}

int supp_matches(const struct supp_list *l, const struct jv *r)
{
    if (!l || !l->head)
        return 0;
    const char **strings;
    size_t n = supp_report_strings(r, &strings);
    int hit = uld_supp_match(l->head, report_kind(r), strings, (int)n) != NULL;
    free(strings);
    return hit;
}

long supp_apply(const struct supp_list *l, struct report_set *s)
{
    long n = 0;
    for (size_t i = 0; i < s->n; i++) {
        s->items[i].suppressed = supp_matches(l, s->items[i].obj);
        n += s->items[i].suppressed;
    }
    s->suppressed = n;
    return n;
}

/* ---- --gen-suppressions ------------------------------------------------- */

/* Would KIND:pattern match report r? */
static int entry_matches(const char *kind, const char *pattern, const struct jv *r)
{
    if (strcmp(kind, report_kind(r)))
        return 0;
    const char **strings;
    size_t n = supp_report_strings(r, &strings);
    int hit = 0;
    for (size_t i = 0; i < n && !hit; i++)
        hit = uld_glob_match(pattern, strings[i]);
    free(strings);
    return hit;
}

/* An instance name ("account_new:17#2"): its number changes from run to run. */
static int is_instance_name(const char *s)
{
    const char *hash = strrchr(s, '#');
    if (!hash || !hash[1])
        return 0;
    for (const char *p = hash + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

/* A string usable as a pattern: what the parser keeps after trimming, on one
 * line, and the same in the next build (no absolute path, no instance number). */
static int usable(const char *s)
{
    size_t n = strlen(s);
    return n && !strpbrk(s, "\n\r") && !strchr(" \t", s[0]) && !strchr(" \t", s[n - 1]) &&
           s[0] != '/' && !is_instance_name(s);
}

/* How many other reports of the set KIND:pattern would also match. */
static size_t others_matching(const struct report_set *s, size_t self, const char *pattern)
{
    size_t n = 0;
    const char *kind = report_kind(s->items[self].obj);
    for (size_t j = 0; j < s->n; j++)
        n += j != self && entry_matches(kind, pattern, s->items[j].obj);
    return n;
}

/* The first of the report's strings (its signature, then names) that matches
 * it alone, as a copy to free. */
static char *best_pattern(const struct report_set *s, size_t self, size_t *also)
{
    const char **strings;
    size_t n = supp_report_strings(s->items[self].obj, &strings);
    const char *best = NULL;
    *also = 0;
    for (size_t i = 0; i < n; i++) {
        if (!usable(strings[i]))
            continue;
        size_t k = others_matching(s, self, strings[i]);
        if (!best || k < *also) {
            best = strings[i];
            *also = k;
        }
        if (k == 0)
            break;
    }
    char *copy = best ? xstrdup(best) : NULL;
    free(strings);
    return copy;
}

void supp_generate(struct sbuf *out, const struct report_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct report *rep = &s->items[i];
        if (rep->suppressed)
            continue;
        size_t also;
        char *pattern = best_pattern(s, i, &also);
        const char *names[64];
        size_t k = report_names(rep->obj, names, 64);
        struct sbuf head = {0};
        report_headline(&head, rep->obj);
        for (char *c = head.s; c && *c; c++)
            *c = *c == '\n' || *c == '\r' ? ' ' : *c; /* one comment line */
        sbuf_printf(out, "# %s: %s\n# locks:", report_kind(rep->obj), sbuf_cstr(&head));
        sbuf_free(&head);
        for (size_t j = 0; j < k; j++)
            sbuf_printf(out, "%s %s", j ? "," : "", names[j]);
        sbuf_puts(out, k ? "\n" : " (none)\n");
        if (!pattern) {
            sbuf_puts(out, "# no lock, class or frame to match: a pattern cannot suppress it\n\n");
            continue;
        }
        if (also)
            sbuf_printf(out, "# note: this entry also suppresses %zu other report%s\n", also,
                        also == 1 ? "" : "s");
        sbuf_printf(out, "%s:%s\n\n", report_kind(rep->obj), pattern);
        free(pattern);
    }
}
