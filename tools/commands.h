/*
 * commands.h - the `ulockdep` subcommands, one module each, dispatched by
 * ulockdep.c.  Each takes its own argv (argv[0] is the subcommand's name)
 * and returns the process exit status.
 */
#ifndef ULD_TOOL_COMMANDS_H
#define ULD_TOOL_COMMANDS_H

#include <stdio.h>

int cmd_run(int argc, char **argv);    /* cmd_run.c */
int cmd_options(void);                 /* cmd_run.c */
int cmd_report(int argc, char **argv); /* cmd_report.c */
int cmd_graph(int argc, char **argv);  /* cmd_graph.c */
int cmd_merge(int argc, char **argv);  /* cmd_merge.c */

/* ulockdep.c: the whole usage, or one subcommand's help. */
void help_all(FILE *out);
void help_command(const char *name, FILE *out);

#endif
