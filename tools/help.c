/*
 * help.c - `ulockdep help`: the synopsis and description of every
 * subcommand, in one table.  Read-only data.
 */
#include "commands.h"

#include <string.h>

struct help_entry {
    const char *name;
    const char *synopsis;
    const char *text;
};

static const struct help_entry help[] = {
    {"run",
     "ulockdep run [--out DIR] [--log FILE] [--json FILE] [--exitcode N] [--skip PROGRAM]...\n"
     "                    [--suppressions FILE] [-o KEY=VALUE]... [--] PROGRAM [ARGS...]",
     "Run PROGRAM (and every process it starts) with libulockdep.so preloaded.\n"
     "  --out DIR            create DIR; each process writes DIR/ulockdep.PID.jsonl (reports),\n"
     "                       .log (human reports) and .graph (lock-class graph, appended\n"
     "                       as edges are recorded; complete with an end record at exit)\n"
     "  --log FILE           log_path=FILE      human reports (default stderr; %p: pid)\n"
     "  --json FILE          json_path=FILE     JSON Lines reports (%p: pid)\n"
     "  --exitcode N         exitcode=N         exit status when an error was reported; run\n"
     "                                          exits with it when the program succeeded but\n"
     "                                          any process under it reported an error\n"
     "  --skip PROGRAM       skip=...           a test driver that records nothing (repeatable;\n"
     "                                          default ctest, make, ninja); its children do\n"
     "  --suppressions FILE  suppressions=FILE  drop matching reports (docs/reports.md)\n"
     "  -o KEY=VALUE         any option of `ulockdep options`\n"
     "Paths are passed with ':' and '\\' escaped. Otherwise, exit status: the program's.\n"
     "Options are passed in ULOCKDEP_OPTIONS after the inherited value. A key set explicitly\n"
     "(inherited ULOCKDEP_OPTIONS, --log, --json or -o) wins over the --out default for it.\n"},
    {"report",
     "ulockdep report [--format text|json|sarif|github|html] [--suppressions FILE]...\n"
     "                       [--gen-suppressions] [--source-root DIR] [--output FILE]\n"
     "                       DIR|FILE...",
     "Read JSON Lines reports (a DIR: its *.jsonl), deduplicate them across processes by\n"
     "signature (else kind + lock names) and print them:\n"
     "  text    each report as printed by the library, then a summary line\n"
     "  json    one object per line, with \"processes\": the pids that reported it\n"
     "  sarif   one SARIF 2.1.0 log (GitHub code scanning and other viewers)\n"
     "  github  ::error / ::warning workflow commands, one per report\n"
     "  html    one self-contained page: a summary table, each cycle drawn (SVG; dot when\n"
     "          installed), stacks folded under each edge, source lines when readable\n"
     "  --suppressions FILE  drop matching reports (counted in the summary); repeatable\n"
     "  --gen-suppressions   print one suppression entry per report instead\n"
     "  --source-root DIR    SARIF: files under DIR (default: here) get URIs relative to it\n"
     "                       (uriBaseId SRCROOT), others absolute file:// URIs\n"
     "  --output FILE        write there instead of standard output\n"
     "For DIR inputs that also hold graph dumps, the summary counts the processes that left\n"
     "reports but no graph (killed, sandboxed, aborted).\n"
     "Exit status: 1 if an unsuppressed error remains; else 2 if an input was unreadable or\n"
     "had malformed lines (each named on stderr, then skipped) or on a usage error; else 0.\n"
     "With --gen-suppressions: 0, or 2 as above.\n"},
    {"merge",
     "ulockdep merge [--format text|json|sarif|github|html] [--suppressions FILE]...\n"
     "                      [--gen-suppressions] [--output FILE] [--write-graph FILE]\n"
     "                      [--baseline FILE]... [--source-root DIR] DIR|FILE...",
     "Unite the lock-class graph dumps (graph_path=, a DIR: its *.graph) of many processes\n"
     "or CI jobs (classes by key; an edge in several dumps: types united, gates intersected)\n"
     "and report each deadlocking cycle (read/write and gate rules of the validator) that\n"
     "no single dump contains, naming, per edge, the dump, program and pid that recorded\n"
     "it first, with its stack: a cross-run-cycle error when every class is one object\n"
     "(static, or one live instance in each dump that recorded its edges), else a\n"
     "cross-run-class-cycle warning. Cycles are deduplicated by their set of classes.\n"
     "Memory grows with the distinct classes and edges, not with the number of dumps.\n"
     "  --write-graph FILE   also write the united graph as one dump that merge, graph and\n"
     "                       report read again (merging is associative and idempotent)\n"
     "  --baseline FILE      known orders (e.g. main's merged graph): report only cycles\n"
     "                       that need an edge of the inputs; repeatable\n"
     "Other options and output as for `report`. The summary counts incomplete dumps\n"
     "(process killed before exit) and processes that left reports but no graph.\n"
     "Exit status: 1 if a cross-run-cycle error is reported; 2 as for `report`; else 0.\n"},
    {"graph", "ulockdep graph [--dot] [--output FILE] DIR|FILE...",
     "Unite graph dumps (a DIR: its *.graph) and print a summary (classes, edges, cycles)\n"
     "or, with --dot, Graphviz: a node per class (name and key), an edge per dependency\n"
     "(its types and gates), edges on a deadlocking cycle in red and bold.\n"
     "  ulockdep graph --dot out/ | dot -Tsvg > locks.svg\n"
     "Exit status: 0; 2 if an input was unreadable or had malformed lines.\n"},
    {"options", "ulockdep options", "List the library's options (ULOCKDEP_OPTIONS).\n"},
    {"version", "ulockdep version", "Print the version.\n"},
    {"help", "ulockdep help [COMMAND]", "This text, or one command's.\n"},
};

#define NHELP (sizeof(help) / sizeof(help[0]))

void help_all(FILE *out)
{
    for (size_t i = 0; i < NHELP; i++)
        fprintf(out, "%s %s\n", i ? "      " : "usage:", help[i].synopsis);
    fputc('\n', out);
    for (size_t i = 0; i < NHELP; i++)
        fprintf(out, "%s:\n%s\n", help[i].name, help[i].text);
    fputs("Report kinds, the JSON formats and suppression files: docs/reports.md.\n", out);
}

void help_command(const char *name, FILE *out)
{
    for (size_t i = 0; i < NHELP; i++)
        if (!strcmp(help[i].name, name)) {
            fprintf(out, "usage: %s\n\n%s", help[i].synopsis, help[i].text);
            return;
        }
    help_all(out);
}
