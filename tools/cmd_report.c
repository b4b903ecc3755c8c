/*
 * cmd_report.c - `ulockdep report [options] DIR|FILE...`: read JSON Lines
 * reports of many processes (a DIR means its *.jsonl), deduplicate them by
 * signature and print them as text, JSON Lines, SARIF or GitHub workflow
 * commands, after suppressions (output.c does the printing).
 * Single-threaded.
 */
#include "commands.h"
#include "fleet.h"
#include "output.h"
#include "reports.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Processes of the DIR inputs with a report file but no graph dump, when the
 * directories hold graph dumps at all (graph_path was set). */
static long without_graph(char **args, int n)
{
    long *reps, *graphs;
    size_t nreps = fleet_pids(args, n, ".jsonl", &reps);
    size_t ngraphs = fleet_pids(args, n, ".graph", &graphs);
    long missing = ngraphs ? fleet_missing(reps, nreps, graphs, ngraphs) : 0;
    free(reps);
    free(graphs);
    return missing;
}

/* A `run --out` directory whose processes reported nothing: graph dumps but no
 * report file (report files are created at the first report). */
static int ran_clean(char *arg)
{
    long *reps, *graphs;
    size_t nreps = fleet_pids(&arg, 1, ".jsonl", &reps);
    size_t ngraphs = fleet_pids(&arg, 1, ".graph", &graphs);
    free(reps);
    free(graphs);
    return nreps == 0 && ngraphs > 0;
}

int cmd_report(int argc, char **argv)
{
    struct emit_opts o = {.fmt = FMT_TEXT, .command = "report"};
    int r = emit_parse_args(argc, argv, &o);
    if (r) {
        if (r > 0)
            help_command("report", stdout);
        return r > 0 ? 0 : 2;
    }
    if (optind >= argc) {
        tool_error("report: no input given (FILE or DIR of *.jsonl)");
        return 2;
    }
    struct report_set s = {0};
    struct pathlist inputs = {0};
    for (int i = optind; i < argc; i++)
        if (!ran_clean(argv[i]) && pathlist_add(&inputs, argv[i], ".jsonl") < 0)
            s.io_errors++;
    for (size_t i = 0; i < inputs.n; i++)
        reports_load(&s, inputs.paths[i]);
    char context[192];
    int n = snprintf(context, sizeof(context), " from %zu process%s in %ld file%s", s.pids.n,
                     s.pids.n == 1 ? "" : "es", s.files, s.files == 1 ? "" : "s");
    long no_graph = without_graph(argv + optind, argc - optind);
    if (no_graph > 0)
        snprintf(context + n, sizeof(context) - (size_t)n,
                 "; %ld process%s left reports but no graph", no_graph, no_graph == 1 ? "" : "es");
    o.context = context;
    int status = emit_reports(&s, &o);
    reports_free(&s);
    pathlist_free(&inputs);
    return status;
}
