/*
 * config.h - run-time options, parsed once from ULOCKDEP_OPTIONS
 * (key=value:key=value) before the first lock is validated; read-only after.
 */
#ifndef ULD_CONFIG_H
#define ULD_CONFIG_H

#include "internal.h"

#define ULD_PATH_MAX 512

struct uld_config {
    char log_path[ULD_PATH_MAX];   /* human reports; empty: stderr */
    char json_path[ULD_PATH_MAX];  /* JSON Lines; empty: none */
    char graph_path[ULD_PATH_MAX]; /* class graph dump at exit; empty: none */
    char suppressions[ULD_PATH_MAX]; /* suppression file; empty: none */
    char debug_dir[ULD_PATH_MAX];  /* extra root for separate debug files; empty: none */
    char wrappers[ULD_PATH_MAX];   /* globs naming lock wrapper functions, ':'-separated */
    char skip[ULD_PATH_MAX];       /* comma-separated program names that record nothing */
    char error_file[ULD_PATH_MAX]; /* a pid line appended at the first error; empty: none */
    /* numeric options are all long: one parser, one table */
    long exitcode;                  /* exit status when errors were reported; 0: keep */
    long verbosity;                 /* 0 one line per report, 1 full reports, 2 debug */
    long symbolize;                 /* resolve function/file:line in reports */
    long symbolize_timeout;         /* seconds per module for debuginfod; 0: never ask */
    long max_frames;                /* frames per stack trace */
    long class_warnings;            /* report class-order-inversion */
    long halt_on_error;             /* abort() after the first error */
    long summary;                   /* one line at exit when anything was reported */
    long max_edges;                /* dependency edges, both graphs */
    long max_locks;                /* live lock instances */
    long max_tombstones;           /* destroyed locks remembered (tomb.c) */
    long max_classes;              /* lock classes */
    long chain_cache_bits;          /* log2 of chain-cache slots */
    long watchdog;                  /* seconds blocked in a cycle before reporting; 0 off */
    long watchdog_abort;            /* abort() after a deadlock-detected report */
    long stats;                     /* print statistics at exit */
    long lock_tags;                 /* store identity tags in unused words of lock objects */
    long builtin_wrappers;          /* also skip the built-in lock-API wrapper names */
    long kill_report;               /* report blocked threads when a fatal signal ends us */
    long follow_links;              /* outputs may be symbolic links */
    long stderr_lines;              /* with a log file, each report's one line on stderr too */
};

extern struct uld_config uld_config ULD_HIDDEN;

/* Fill defaults, then apply `opts` (may be NULL): key=value items separated
 * by ':'; in a value "\\:" is a ':' and "\\\\" a '\\'.  Errors are printed
 * one line each and the option keeps its default.  Returns the error count. */
int uld_config_parse(const char *opts) ULD_HIDDEN;

/* Is this process's program (its name, without directories) in `skip`? */
int uld_config_skips_program(const char *name) ULD_HIDDEN;

/* Expand %p to the pid in a path option. */
void uld_config_expand_path(const char *in, char *out, size_t n) ULD_HIDDEN;

#endif
