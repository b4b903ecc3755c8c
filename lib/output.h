/* output.h - the validator's output descriptors (see output.c). */
#ifndef ULD_OUTPUT_H
#define ULD_OUTPUT_H

#include "internal.h"

enum uld_out { ULD_OUT_STDERR, ULD_OUT_LOG, ULD_OUT_JSON, ULD_OUT_GRAPH, ULD_OUT_N };

void uld_output_init(void) ULD_HIDDEN; /* remember what fd 2 is */
/* Open (create, append) path for an output; the descriptor or -1. */
int uld_output_open(enum uld_out which, const char *path) ULD_HIDDEN;
/* A fork child's own file instead of its parent's: close the inherited
 * descriptor if it still names the parent's file, then open path. */
int uld_output_reopen(enum uld_out which, const char *path) ULD_HIDDEN;
/* A descriptor that still names the output's file, or -1 (write nothing).
 * ULD_OUT_LOG without a log file is stderr. */
int uld_output_fd(enum uld_out which) ULD_HIDDEN;
void uld_output_write(enum uld_out which, const char *p, size_t n) ULD_HIDDEN;

#endif /* ULD_OUTPUT_H */
