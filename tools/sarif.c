/*
 * sarif.c - one SARIF 2.1.0 log for a set of reports: one run, a rule per
 * report kind that occurs, a result per unsuppressed report with its
 * acquisition site, the cycle edges as related locations and thread flows,
 * and the report signature as partial fingerprint.  Single-threaded.
 */
#include "output.h"

#include "kinds.h"

#include <stdlib.h>
#include <string.h>

#ifndef ULD_VERSION
#define ULD_VERSION "unknown"
#endif
#ifndef ULD_INFORMATION_URI
#define ULD_INFORMATION_URI ""
#endif

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

#define SRCROOT "SRCROOT"

static char *source_root; /* absolute, ending in '/' (out_sarif) */

/* The artifactLocation of a file: relative to the source root when under it. */
static struct jv *artifact(const char *file)
{
    struct jv *art = jv_object();
    struct sbuf uri = {0};
    size_t n = strlen(source_root);
    if (file[0] != '/' || !strncmp(file, source_root, n)) {
        uri_encode(&uri, file[0] == '/' ? file + n : file);
        jv_set(art, "uri", jv_string(sbuf_cstr(&uri)));
        jv_set(art, "uriBaseId", jv_string(SRCROOT));
    } else {
        sbuf_puts(&uri, "file://");
        uri_encode(&uri, file);
        jv_set(art, "uri", jv_string(sbuf_cstr(&uri)));
    }
    sbuf_free(&uri);
    return art;
}

static void set_source_root(const char *dir)
{
    char *abs = realpath(dir ? dir : ".", NULL);
    struct sbuf b = {0};
    sbuf_puts(&b, abs ? abs : (dir ? dir : "."));
    if (b.len == 0 || b.s[b.len - 1] != '/')
        sbuf_putc(&b, '/');
    free(abs);
    free(source_root);
    source_root = xstrdup(sbuf_cstr(&b));
    sbuf_free(&b);
}

static struct jv *text_obj(const char *text)
{
    struct jv *o = jv_object();
    jv_set(o, "text", jv_string(text));
    return o;
}

/* {"physicalLocation":{...}} for a frame with a file, else NULL. */
static struct jv *physical(const struct jv *frame)
{
    const char *file = jv_get_str(frame, "file");
    if (!file || !*file)
        return NULL;
    struct jv *phys = jv_object(), *loc = jv_object();
    jv_set(phys, "artifactLocation", artifact(file));
    long line = jv_int(jv_get(frame, "line"), 0);
    if (line > 0) {
        struct jv *region = jv_object();
        jv_set(region, "startLine", jv_long(line));
        jv_set(phys, "region", region);
    }
    jv_set(loc, "physicalLocation", phys);
    return loc;
}

static void add_message(struct jv *loc, const char *text)
{
    jv_set(loc, "message", text_obj(text));
}

static struct jv *related_locations(const struct jv *r)
{
    const struct jv *cycle = jv_get(r, "cycle");
    struct jv *arr = jv_array();
    for (size_t i = 0; i < jv_len(cycle); i++) {
        const struct jv *e = jv_at(cycle, i);
        struct jv *loc = physical(frames_first_with_file(jv_get(e, "stack")));
        if (!loc)
            continue;
        struct sbuf label = {0};
        edge_label(&label, r, e);
        jv_set(loc, "id", jv_long((long)i + 1));
        add_message(loc, sbuf_cstr(&label));
        jv_push(arr, loc);
        sbuf_free(&label);
    }
    return arr;
}

/* One threadFlow: the edge's frames, innermost first, inlined bodies as their own steps. */
static struct jv *thread_flow(const struct jv *r, const struct jv *e)
{
    struct jv *flow = jv_object(), *locs = jv_array();
    struct sbuf label = {0};
    edge_label(&label, r, e);
    jv_set(flow, "message", text_obj(sbuf_cstr(&label)));
    const struct jv *stack = jv_get(e, "stack");
    for (size_t i = 0; i < jv_len(stack); i++) {
        const struct jv *frame = jv_at(stack, i);
        struct jv *loc = physical(frame);
        struct sbuf ft = {0};
        frame_text(&ft, frame);
        if (!loc)
            loc = jv_object();
        add_message(loc, sbuf_cstr(&ft));
        struct jv *tfl = jv_object();
        jv_set(tfl, "location", loc);
        if (frame_is_inlined(frame)) { /* same address as the frame after it */
            struct jv *props = jv_object();
            jv_set(props, "inlined", jv_bool(1));
            jv_set(tfl, "properties", props);
        }
        jv_push(locs, tfl);
        sbuf_free(&ft);
    }
    if (!locs->n) { /* a thread flow needs a location */
        struct jv *loc = jv_object(), *tfl = jv_object();
        add_message(loc, sbuf_cstr(&label));
        jv_set(tfl, "location", loc);
        jv_push(locs, tfl);
    }
    jv_set(flow, "locations", locs);
    sbuf_free(&label);
    return flow;
}

static struct jv *code_flows(const struct jv *r)
{
    const struct jv *cycle = jv_get(r, "cycle");
    struct jv *flows = jv_array(), *cf = jv_object(), *tfs = jv_array();
    for (size_t i = 0; i < jv_len(cycle); i++)
        jv_push(tfs, thread_flow(r, jv_at(cycle, i)));
    jv_set(cf, "threadFlows", tfs);
    jv_push(flows, cf);
    return flows;
}

/* The primary location: the acquisition site, else the first frame's module. */
static struct jv *primary_location(const struct jv *r)
{
    struct jv *loc = physical(report_site(r));
    if (loc)
        return loc;
    const struct jv *at = jv_get(r, "at");
    const char *mod = jv_get_str(at, "module");
    if (!mod)
        mod = jv_get_str(jv_at(jv_get(r, "stack"), 0), "module");
    if (!mod)
        return NULL;
    struct jv *frame = jv_object();
    jv_set(frame, "file", jv_string(mod));
    loc = physical(frame);
    jv_free(frame);
    return loc;
}

static struct jv *result(const struct report *rep, long rule_index)
{
    const struct jv *r = rep->obj;
    struct jv *res = jv_object(), *locs = jv_array(), *fp = jv_object(), *props = jv_object();
    struct sbuf msg = {0}, sig = {0};
    report_headline(&msg, r);
    report_fingerprint(&sig, rep);
    jv_set(res, "ruleId", jv_string(report_kind(r)));
    jv_set(res, "ruleIndex", jv_long(rule_index));
    jv_set(res, "level", jv_string(report_is_error(r) ? "error" : "warning"));
    jv_set(res, "message", text_obj(sbuf_cstr(&msg)));
    struct jv *loc = primary_location(r);
    if (loc)
        jv_push(locs, loc);
    jv_set(res, "locations", locs);
    if (jv_len(jv_get(r, "cycle"))) {
        jv_set(res, "relatedLocations", related_locations(r));
        jv_set(res, "codeFlows", code_flows(r));
    }
    jv_set(fp, "ulockdepSignature/v1", jv_string(sbuf_cstr(&sig)));
    jv_set(res, "partialFingerprints", fp);
    struct jv *procs = jv_array();
    for (size_t i = 0; i < rep->npids; i++)
        jv_push(procs, jv_long(rep->pids[i]));
    jv_set(props, "processes", procs);
    jv_set(res, "properties", props);
    sbuf_free(&msg);
    sbuf_free(&sig);
    return res;
}

static struct jv *rule(const char *kind, int error)
{
    const struct kind_info *k = kind_find(kind);
    struct jv *rl = jv_object(), *conf = jv_object();
    struct sbuf fallback = {0};
    sbuf_printf(&fallback, "ulockdep report %s", kind);
    jv_set(rl, "id", jv_string(kind));
    jv_set(rl, "shortDescription", text_obj(k ? k->title : sbuf_cstr(&fallback)));
    jv_set(rl, "fullDescription", text_obj(k ? k->help : sbuf_cstr(&fallback)));
    jv_set(conf, "level",
           jv_string((k ? !strcmp(k->severity, "error") : error) ? "error" : "warning"));
    jv_set(rl, "defaultConfiguration", conf);
    sbuf_free(&fallback);
    return rl;
}

/* Index of kind in rules, adding it when new. */
static long rule_index(struct jv *rules, const struct jv *r)
{
    const char *kind = report_kind(r);
    for (size_t i = 0; i < rules->n; i++)
        if (!strcmp(jv_get_str(rules->u.items[i], "id"), kind))
            return (long)i;
    jv_push(rules, rule(kind, report_is_error(r)));
    return (long)rules->n - 1;
}

void out_sarif(struct sbuf *b, const struct report_set *s, const char *root)
{
    set_source_root(root);
    struct jv *log = jv_object(), *runs = jv_array(), *run = jv_object();
    struct jv *tool = jv_object(), *driver = jv_object(), *rules = jv_array();
    struct jv *results = jv_array();
    for (size_t i = 0; i < s->n; i++)
        if (!s->items[i].suppressed)
            jv_push(results, result(&s->items[i], rule_index(rules, s->items[i].obj)));
    jv_set(log, "$schema", jv_string(SARIF_SCHEMA));
    jv_set(log, "version", jv_string("2.1.0"));
    jv_set(driver, "name", jv_string("ulockdep"));
    if (ULD_INFORMATION_URI[0]) /* optional in SARIF; never a made-up address */
        jv_set(driver, "informationUri", jv_string(ULD_INFORMATION_URI));
    jv_set(driver, "version", jv_string(ULD_VERSION));
    jv_set(driver, "rules", rules);
    jv_set(tool, "driver", driver);
    jv_set(run, "tool", tool);
    struct jv *bases = jv_object(), *srcroot = jv_object();
    struct sbuf uri = {0};
    sbuf_puts(&uri, "file://");
    uri_encode(&uri, source_root);
    jv_set(srcroot, "uri", jv_string(sbuf_cstr(&uri)));
    jv_set(bases, SRCROOT, srcroot);
    jv_set(run, "originalUriBaseIds", bases);
    sbuf_free(&uri);
    jv_set(run, "results", results);
    jv_push(runs, run);
    jv_set(log, "runs", runs);
    jv_write(b, log, 2);
    sbuf_putc(b, '\n');
    jv_free(log);
    free(source_root);
    source_root = NULL;
}
