/*
 * ulockdep - the command-line front end: dispatch (help texts: help.c).  One
 * module per subcommand (commands.h):
 *
 *   ulockdep run [options] [--] PROGRAM [ARGS...]  run a program under the validator
 *   ulockdep report [options] DIR|FILE...         print JSON Lines reports, deduplicated
 *   ulockdep merge [options] DIR|FILE...          cycles across the graph dumps of many runs
 *   ulockdep graph [--dot] DIR|FILE...            the union of graph dumps, as text or Graphviz
 *   ulockdep options                              list ULOCKDEP_OPTIONS keys
 *   ulockdep version
 *   ulockdep help [COMMAND]
 */
#include "commands.h"

#include <string.h>

#ifndef ULD_VERSION
#define ULD_VERSION "unknown"
#endif

int main(int argc, char **argv)
{
    if (argc < 2) {
        help_all(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "merge"))
        return cmd_merge(argc - 1, argv + 1);
    if (!strcmp(cmd, "graph"))
        return cmd_graph(argc - 1, argv + 1);
    if (!strcmp(cmd, "options"))
        return cmd_options();
    if (!strcmp(cmd, "version")) {
        printf("ulockdep %s\n", ULD_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        if (argc > 2)
            help_command(argv[2], stdout);
        else
            help_all(stdout);
        return 0;
    }
    fprintf(stderr, "ulockdep: unknown command '%s'\n", cmd);
    help_all(stderr);
    return 2;
}
