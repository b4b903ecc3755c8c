/*
 * suppress.h - suppression files, shared by the library (applied when a
 * report is printed) and the `ulockdep report` tool.  Format (docs/reports.md):
 * one `KIND:PATTERN` per line, `#` comments, KIND a report kind or `*`,
 * PATTERN a glob (`*`, `?`) matched against the report's lock and class
 * names and its stacks' functions, files and modules.
 */
#ifndef ULD_SUPPRESS_H
#define ULD_SUPPRESS_H

#include "internal.h"

struct uld_suppression {
    char *kind;     /* "*" matches any */
    char *pattern;
    long hits;
    struct uld_suppression *next;
};

/* Called once per malformed line (file, 1-based line, reason). */
typedef void uld_supp_error_fn(const char *file, int line, const char *why);

/*
 * Parse `text` (the file's contents) into a list; malformed lines are
 * reported and skipped.  is_kind() says whether a kind name is known.
 */
struct uld_suppression *uld_supp_parse(const char *file, const char *text,
                                       int (*is_kind)(const char *kind),
                                       uld_supp_error_fn *error) ULD_HIDDEN;
/* The same for `len` bytes that may hold NULs (a line with one is named and skipped). */
struct uld_suppression *uld_supp_parse_n(const char *file, const char *text, size_t len,
                                         int (*is_kind)(const char *kind),
                                         uld_supp_error_fn *error) ULD_HIDDEN;
/* Read and parse a file; NULL with an error line when it cannot be read. */
struct uld_suppression *uld_supp_load(const char *path, int (*is_kind)(const char *kind),
                                      uld_supp_error_fn *error) ULD_HIDDEN;
/* The first entry matching `kind` and any of strings[0..n), or NULL; counts a hit. */
struct uld_suppression *uld_supp_match(struct uld_suppression *list, const char *kind,
                                       const char *const *strings, int n) ULD_HIDDEN;
/* Free a list from uld_supp_parse/uld_supp_load. */
void uld_supp_free(struct uld_suppression *list) ULD_HIDDEN;
/* `*` and `?` glob over the whole string. */
int uld_glob_match(const char *pattern, const char *s) ULD_HIDDEN;

#endif
