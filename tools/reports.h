/*
 * reports.h - the reports the tools read (JSON Lines from json_path=, see
 * docs/reports.md) or make (`ulockdep merge`): loading, deduplication across
 * processes, and read-only views of one report (names, site, frames, the
 * one-line headline) shared by every output format.  Single-threaded.
 */
#ifndef ULD_TOOL_REPORTS_H
#define ULD_TOOL_REPORTS_H

#include "json.h"
#include "util.h"

struct report {
    struct jv *obj; /* the first occurrence, as read */
    char *key;      /* deduplication key: "sig:<signature>" or kind + lock names */
    long *pids;     /* distinct pids that reported it, in order seen */
    size_t npids, cappids;
    int suppressed; /* set by the suppression pass */
};

struct report_set {
    struct report *items;
    size_t n, cap;
    struct strmap index; /* key -> item index */
    struct strmap pids;  /* every pid seen, for the summary */
    long files;          /* inputs read */
    long bad_lines;      /* malformed lines skipped */
    long io_errors;      /* inputs that could not be read */
    long suppressed;     /* distinct reports suppressed */
};

/* Read one JSON Lines file; malformed lines are named on stderr and skipped.
 * Returns 0, or -1 (counted in io_errors) when the file cannot be read. */
int reports_load(struct report_set *s, const char *path);
/* Add one report object (ownership passes); merges it into an equal one. */
void reports_add(struct report_set *s, struct jv *obj);
void reports_free(struct report_set *s);

/* ---- views of one report object --------------------------------------- */
const char *report_kind(const struct jv *r); /* "unknown" when absent */
int report_is_error(const struct jv *r);     /* severity "error" (default) */
/* Lock names (locks[].name), else class names (classes[].name); returns the count. */
size_t report_names(const struct jv *r, const char **out, size_t max);
/* "message: a -> b -> a" (cycle) or "message: a, b". */
void report_headline(struct sbuf *b, const struct jv *r);
/* The acquisition site: the first frame with a file of `stack`, else `at`. */
const struct jv *report_site(const struct jv *r);
/* Is this JSON frame an inlined body ("inlined": true)? */
int frame_is_inlined(const struct jv *frame);
/* The first frame with a file in an array of frames, or NULL; inlined
 * bodies from system headers (/usr/...) do not count. */
const struct jv *frames_first_with_file(const struct jv *frames);
/* "lock_a -> lock_b, thread T1 (name)" or ", pid N (program)" for one cycle edge. */
void edge_label(struct sbuf *b, const struct jv *r, const struct jv *edge);
/* "function (file:line)", "function (module)", or the address. */
void frame_text(struct sbuf *b, const struct jv *frame);
/* Every frame of the report: at, stack, cycle edges' from_acquired_at and stack,
 * held locks' acquired_at. */
typedef void frame_fn(const struct jv *frame, void *ctx);
void report_each_frame(const struct jv *r, frame_fn *fn, void *ctx);
/* The compact human rendering used when a report has no `text`. */
void report_render(struct sbuf *b, const struct jv *r);

#endif
