/*
 * source.h - source lines for reports (see source.c).
 */
#ifndef ULD_SOURCE_H
#define ULD_SOURCE_H

#include "base/internal.h"

/* Line `line` of the file at absolute `path`, blanks trimmed, into out.
 * Returns 1, or 0 (out empty) when it cannot be read.  Report lock held. */
int uld_source_line(const char *path, int line, char *out, size_t n) ULD_HIDDEN;

#endif
