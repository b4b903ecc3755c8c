/*
 * output.h - the output formats of `ulockdep report` and `ulockdep merge`
 * (text, JSON Lines, SARIF 2.1.0, GitHub workflow commands) and the driver
 * they share: suppressions, --gen-suppressions, the summary line, the exit
 * status.  Single-threaded.
 */
#ifndef ULD_TOOL_OUTPUT_H
#define ULD_TOOL_OUTPUT_H

#include "reports.h"
#include "util.h"

enum out_format { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB, FMT_HTML };

struct emit_opts {
    enum out_format fmt;
    const char *output;   /* NULL: stdout */
    const char *supp[16]; /* --suppressions files */
    int nsupp;
    int gen;             /* --gen-suppressions */
    const char *command; /* "report" or "merge", for the summary */
    const char *context; /* " from 3 processes in 2 files" */
    /* merge only */
    const char *write_graph;   /* --write-graph FILE */
    const char *baseline[16];  /* --baseline FILE */
    int nbaseline;
    const char *source_root;   /* --source-root DIR (SARIF) */
};

/* Parse a subcommand's options into o (getopt_long; on return optind is the
 * first input).  Returns -1 after a usage error, 1 for --help, else 0. */
int emit_parse_args(int argc, char **argv, struct emit_opts *o);

/*
 * Apply suppressions, print the reports in the chosen format (or the
 * generated suppressions) and the summary.  Returns the exit status:
 * 1 if an unsuppressed error-severity report remains; else 2 if an input
 * could not be read or had malformed lines (or the output failed); else 0.
 */
int emit_reports(struct report_set *s, const struct emit_opts *o);

/* The formats (suppressed reports are skipped). */
void out_text(struct sbuf *b, const struct report_set *s);
void out_json(struct sbuf *b, struct report_set *s);
void out_github(struct sbuf *b, const struct report_set *s);
/* One self-contained page (html.c); summary: the summary line. */
void out_html(struct sbuf *b, const struct report_set *s, const char *summary);
/* Files under source_root (NULL: the current directory) get URIs relative to
 * it with uriBaseId SRCROOT; others absolute file:// URIs. */
void out_sarif(struct sbuf *b, const struct report_set *s, const char *source_root);

/* GitHub workflow-command escaping: data (%, CR, LF) or a property (also : and ,). */
void github_escape(struct sbuf *b, const char *s, int property);

/* Fingerprint of a report: its signature, else a hash of its dedup key. */
void report_fingerprint(struct sbuf *b, const struct report *rep);

#endif
