/*
 * json.h - a small, strict JSON (RFC 8259) parser, builder and writer for
 * the `ulockdep` command: reports and graph dumps in, JSON Lines and SARIF
 * out.  Values are trees of malloc'd nodes; objects keep their members in
 * order (duplicate keys are kept; lookups return the first).
 *
 * Strict: no comments, no trailing commas, no leading zeros, no bare control
 * characters in strings, valid UTF-8 only, nesting at most JSON_MAX_DEPTH.
 */
#ifndef ULD_TOOL_JSON_H
#define ULD_TOOL_JSON_H

#include <stddef.h>

#include "util.h"

#define JSON_MAX_DEPTH 256

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct jv;
struct jmember {
    char *key;
    struct jv *val;
};

struct jv {
    enum jtype type;
    size_t n, cap; /* array items / object members */
    union {
        struct jv **items;       /* J_ARRAY */
        struct jmember *members; /* J_OBJECT */
    } u;
    char *s;    /* J_STRING: the text (NUL-terminated; n = length);
                   J_NUMBER: the number as written */
    double num; /* J_NUMBER */
};

struct json_error {
    size_t offset; /* byte offset of the problem (0-based) */
    char msg[96];
};

/* Parse exactly one value (surrounding blanks allowed); NULL and *err on error. */
struct jv *json_parse(const char *text, size_t len, struct json_error *err);
void jv_free(struct jv *v);

/* ---- reading (all accept NULL and wrong types, returning the default) ---- */
const struct jv *jv_get(const struct jv *obj, const char *key);
const struct jv *jv_at(const struct jv *arr, size_t i);
size_t jv_len(const struct jv *arr);    /* 0 unless an array */
const char *jv_str(const struct jv *v); /* NULL unless a string */
const char *jv_get_str(const struct jv *obj, const char *key);
long jv_int(const struct jv *v, long def); /* integral numbers only */
int jv_is(const struct jv *v, enum jtype t);

/* ---- building ---------------------------------------------------------- */
struct jv *jv_null(void);
struct jv *jv_bool(int b);
struct jv *jv_long(long n);
struct jv *jv_string(const char *s); /* NULL gives null */
struct jv *jv_array(void);
struct jv *jv_object(void);
struct jv *jv_clone(const struct jv *v);
/* Append; takes ownership of `item`. */
void jv_push(struct jv *arr, struct jv *item);
/* Set (replacing the first member of that key, else appending); takes ownership. */
void jv_set(struct jv *obj, const char *key, struct jv *val);

/* ---- writing ------------------------------------------------------------ */
/* Compact when indent == 0, else pretty with `indent` spaces per level. */
void jv_write(struct sbuf *b, const struct jv *v, int indent);
void json_write_str(struct sbuf *b, const char *s, size_t n);

#endif
