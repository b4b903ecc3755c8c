/*
 * suppress.h - suppression files for the tools (format: docs/reports.md,
 * "Suppressions").  The parser and the glob matcher are the library's own
 * (lib/base/suppress.c, linked from uld_core), so `ulockdep report` and the
 * validator at run time apply exactly the same rules; this module adds what
 * only the tool needs: the strings of a JSON report a pattern is matched
 * against, and generating entries (--gen-suppressions).  Single-threaded.
 */
#ifndef ULD_TOOL_SUPPRESS_H
#define ULD_TOOL_SUPPRESS_H

#include "json.h"
#include "reports.h"

struct uld_suppression;

struct supp_list {
    struct uld_suppression *head;
    long bad_lines; /* malformed lines (each named on stderr) */
};

/* Load a suppression file.  Malformed lines: one error line each, skipped;
 * returns -1 (after an error line) only when the file cannot be read. */
int supp_load(struct supp_list *l, const char *path);
void supp_free(struct supp_list *l);

/* Does an entry match this report?  (kind, then pattern against any string.) */
int supp_matches(const struct supp_list *l, const struct jv *r);

/* Mark the matching reports of a set suppressed; returns how many. */
long supp_apply(const struct supp_list *l, struct report_set *s);

/*
 * The strings a pattern is matched against: every class name and lock name,
 * and for every frame (report_each_frame) its function, file, file basename
 * and module.  Pointers into r; *out is malloc'd; returns the count.
 */
size_t supp_report_strings(const struct jv *r, const char ***out);

/* One entry per unsuppressed report, each matching exactly that report
 * among the set where a class or lock name or another single string allows
 * it; a report with no string at all gets a comment instead. */
void supp_generate(struct sbuf *out, const struct report_set *s);

#endif
