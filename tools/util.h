/*
 * util.h - small helpers shared by the `ulockdep` subcommands: checked
 * allocation, a growable string buffer, a string-keyed hash map, input
 * expansion (a directory means its files with one extension) and paths as
 * tools want them.  The command is single-threaded: nothing here locks.
 */
#ifndef ULD_TOOL_UTIL_H
#define ULD_TOOL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Allocation that cannot fail: out of memory ends the command (status 2). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grow *items (of `size` bytes each) so that index `need - 1` fits. */
void xgrow(void *items, size_t *cap, size_t need, size_t size);

/* ---- string buffer --------------------------------------------------- */
struct sbuf {
    char *s; /* always NUL-terminated once anything was added */
    size_t len, cap;
};
void sbuf_putn(struct sbuf *b, const char *s, size_t n);
void sbuf_puts(struct sbuf *b, const char *s);
void sbuf_putc(struct sbuf *b, char c);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *sbuf_cstr(struct sbuf *b); /* "" when empty */
void sbuf_reset(struct sbuf *b);       /* keep the memory */
void sbuf_free(struct sbuf *b);

/* ---- string-keyed map (open addressing; keys are copied) ------------- */
struct strmap {
    char **keys;
    long *vals;
    size_t cap, n;
};
/* Value for key, or -1. */
long strmap_get(const struct strmap *m, const char *key);
/* Insert if absent; returns the value now stored (the old one if present). */
long strmap_put(struct strmap *m, const char *key, long val);
void strmap_free(struct strmap *m);

/* ---- inputs ------------------------------------------------------------ */
struct pathlist {
    char **paths;
    size_t n, cap;
};
/*
 * Append `arg`: a file as given, a directory as its regular files ending
 * in `ext` (sorted by name, not recursive).  Returns 0, or -1 after one
 * error line when `arg` cannot be read.
 */
int pathlist_add(struct pathlist *l, const char *arg, const char *ext);
void pathlist_free(struct pathlist *l);

/* ---- paths and names -------------------------------------------------- */
/* `file` relative to the current directory when it is under it, else as is. */
const char *path_relative(const char *file);
/* A URI reference for SARIF: relative when under the current directory,
 * else file:///abs; percent-encoded. */
void path_uri(struct sbuf *b, const char *file);
const char *path_basename(const char *file);
/* Percent-encode a path for a URI (`/` kept). */
void uri_encode(struct sbuf *b, const char *path);

/* FNV-1a, as the library hashes report signatures (lib/report/report.c). */
uint64_t fnv_str(uint64_t h, const char *s);
#define FNV_INIT 0xcbf29ce484222325ull

/* One-line error, prefixed "ulockdep: ". */
/* Input lines: longer ones end the file (a binary or endless input, /dev/zero). */
#define LINE_MAX_BYTES (16u << 20)
/* getline() with a cap: the line's length, -1 at EOF or error, -2 when the
 * line is longer than `max` (its first `max` bytes are in *line). */
ssize_t read_line_capped(FILE *f, char **line, size_t *cap, size_t max);
size_t tool_line_max(void); /* LINE_MAX_BYTES, or $ULOCKDEP_LINE_MAX (tests) */

void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
