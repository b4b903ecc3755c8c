/*
 * dump.h - the graph file (dump.c) and the statistics (stats.c).
 */
#ifndef ULD_DUMP_H
#define ULD_DUMP_H

#include "base/internal.h"

/* dump.c: the graph file, written as edges appear (see dump.c) */
void uld_graph_dump_open(void) ULD_HIDDEN;             /* at start-up */
int uld_graph_dump_due(void) ULD_HIDDEN;               /* edges changed since written */
void uld_graph_dump_write(int final) ULD_HIDDEN;       /* report_lock held */
void uld_graph_dump_after_fork_child(void) ULD_HIDDEN;
void uld_graph_dump(void) ULD_HIDDEN;                  /* at exit: the rest, then "end" */
void uld_stats_print(int fd) ULD_HIDDEN;       /* stats.c */

#endif
