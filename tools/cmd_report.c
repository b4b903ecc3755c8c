/*
 * cmd_report.c - `ulockdep report [options] DIR|FILE...`: read JSON Lines
 * reports of many processes (a DIR means its *.jsonl), deduplicate them by
 * signature and print them as text, JSON Lines, SARIF or GitHub workflow
 * commands, after suppressions (output.c does the printing).
 * Single-threaded.
 */
#include "commands.h"
#include "output.h"
#include "reports.h"

#include <string.h>
#include <unistd.h>

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
        if (pathlist_add(&inputs, argv[i], ".jsonl") < 0)
            s.io_errors++;
    for (size_t i = 0; i < inputs.n; i++)
        reports_load(&s, inputs.paths[i]);
    char context[128];
    snprintf(context, sizeof(context), " from %zu process%s in %ld file%s", s.pids.n,
             s.pids.n == 1 ? "" : "es", s.files, s.files == 1 ? "" : "s");
    o.context = context;
    int status = emit_reports(&s, &o);
    reports_free(&s);
    pathlist_free(&inputs);
    return status;
}
