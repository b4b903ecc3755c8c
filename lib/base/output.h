/* output.h - the validator's output descriptors (see output.c). */
#ifndef ULD_OUTPUT_H
#define ULD_OUTPUT_H

#include "internal.h"

enum uld_out { ULD_OUT_STDERR, ULD_OUT_LOG, ULD_OUT_JSON, ULD_OUT_GRAPH, ULD_OUT_N };

void uld_output_init(void) ULD_HIDDEN; /* remember what fd 2 is */
/* Set the file of an output; it is created at its first write.  0, or -1
 * (errno) when the path cannot be used. */
int uld_output_open(enum uld_out which, const char *path) ULD_HIDDEN;
/* A fork child's own file instead of its parent's: close the inherited
 * descriptor if it still names the parent's file, then set path. */
int uld_output_reopen(enum uld_out which, const char *path) ULD_HIDDEN;
/* Create or open an output file the safe way (output.c), high up; -1 with
 * errno (ELOOP: a symbolic link, ENXIO: a FIFO nobody reads, EPERM: planted). */
int uld_output_create(const char *path, int truncate) ULD_HIDDEN;
/* The one warning line for an output that cannot be created; `then` says
 * what happens instead. */
void uld_output_open_failed(const char *option, const char *path, int err,
                            const char *then) ULD_HIDDEN;
/* A descriptor that still names the output's file, or -1 (write nothing).
 * ULD_OUT_LOG without a usable log file is stderr. */
int uld_output_fd(enum uld_out which) ULD_HIDDEN;
/* Write to an output (to fd, from uld_output_fd); the first failure is said
 * once and the log falls back to stderr. */
void uld_output_write_fd(enum uld_out which, int fd, const char *p, size_t n) ULD_HIDDEN;
void uld_output_write(enum uld_out which, const char *p, size_t n) ULD_HIDDEN;
/* Move a descriptor of ours out of the program's lowest-free range. */
int uld_fd_move_high(int fd) ULD_HIDDEN;

/* procfile.c: each process's own report files, named in their first record */
void uld_procfile_header(int json, int fd) ULD_HIDDEN; /* output.c, at creation */
void uld_procfile_after_fork_child(void) ULD_HIDDEN;

#endif /* ULD_OUTPUT_H */
