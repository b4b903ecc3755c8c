/*
 * json.c - strict JSON parser, builder and writer (see json.h).  Recursive
 * descent with a depth limit; every error says what was expected and where.
 * No global state.
 */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const unsigned char *p, *start, *end;
    struct json_error *err;
    int depth;
};

static struct jv *parse_value(struct parser *ps);

static struct jv *fail(struct parser *ps, const char *msg)
{
    if (ps->err && !ps->err->msg[0]) {
        ps->err->offset = (size_t)(ps->p - ps->start);
        snprintf(ps->err->msg, sizeof(ps->err->msg), "%s", msg);
    }
    return NULL;
}

static struct jv *new_value(enum jtype t)
{
    struct jv *v = xcalloc(1, sizeof(*v));
    v->type = t;
    return v;
}

static void skip_blanks(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int literal(struct parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
        return 0;
    ps->p += n;
    return 1;
}

static int is_digit(const struct parser *ps)
{
    return ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9';
}

static struct jv *parse_number(struct parser *ps)
{
    const unsigned char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    if (!is_digit(ps))
        return fail(ps, "expected a digit");
    if (*ps->p == '0') {
        ps->p++;
        if (is_digit(ps))
            return fail(ps, "leading zero in a number");
    } else {
        while (is_digit(ps))
            ps->p++;
    }
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        if (!is_digit(ps))
            return fail(ps, "expected a digit after '.'");
        while (is_digit(ps))
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (!is_digit(ps))
            return fail(ps, "expected a digit in the exponent");
        while (is_digit(ps))
            ps->p++;
    }
    struct jv *v = new_value(J_NUMBER);
    v->s = xstrndup((const char *)s, (size_t)(ps->p - s));
    v->num = strtod(v->s, NULL);
    return v;
}

static int hex4(struct parser *ps, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++, ps->p++) {
        if (ps->p >= ps->end)
            return 0;
        unsigned c = *ps->p;
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return 0;
    }
    *out = v;
    return 1;
}

static void put_utf8(struct sbuf *b, unsigned cp)
{
    char u[4];
    int n;
    if (cp < 0x80) {
        u[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
    }
    sbuf_putn(b, u, (size_t)n);
}

/* \uXXXX, with a surrogate pair when it is one; ps->p is after "\u". */
static int unicode_escape(struct parser *ps, struct sbuf *b)
{
    unsigned cp, lo;
    if (!hex4(ps, &cp))
        return fail(ps, "expected 4 hex digits after \\u"), 0;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return fail(ps, "unpaired low surrogate"), 0;
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (!literal(ps, "\\u") || !hex4(ps, &lo) || lo < 0xdc00 || lo > 0xdfff)
            return fail(ps, "unpaired high surrogate"), 0;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    put_utf8(b, cp);
    return 1;
}

static int escape(struct parser *ps, struct sbuf *b)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (ps->p >= ps->end)
        return fail(ps, "unterminated string"), 0;
    unsigned char c = *ps->p++;
    if (c == 'u')
        return unicode_escape(ps, b);
    const char *k = c ? strchr(from, c) : NULL;
    if (!k) {
        ps->p--;
        return fail(ps, "invalid escape"), 0;
    }
    sbuf_putc(b, to[k - from]);
    return 1;
}

/* Length of the valid UTF-8 sequence at p (non-ASCII), or 0. */
static int utf8_len(const unsigned char *p, const unsigned char *end)
{
    int n = p[0] >= 0xf0 && p[0] <= 0xf4  ? 4
            : p[0] >= 0xe0                ? 3
            : p[0] >= 0xc2 && p[0] < 0xe0 ? 2
                                          : 0;
    if (!n || end - p < n)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0; /* overlong, surrogate, or beyond U+10FFFF */
    return n;
}

/* ps->p is after the opening quote; on success *out is the text. */
static int parse_string_raw(struct parser *ps, struct sbuf *out)
{
    for (;;) {
        if (ps->p >= ps->end)
            return fail(ps, "unterminated string"), 0;
        unsigned char c = *ps->p;
        if (c == '"') {
            ps->p++;
            if (!out->s)
                sbuf_putn(out, "", 0);
            return 1;
        }
        if (c == '\\') {
            ps->p++;
            if (!escape(ps, out))
                return 0;
        } else if (c < 0x20) {
            return fail(ps, "control character in a string"), 0;
        } else if (c < 0x80) {
            sbuf_putc(out, (char)c);
            ps->p++;
        } else {
            int n = utf8_len(ps->p, ps->end);
            if (!n)
                return fail(ps, "invalid UTF-8 in a string"), 0;
            sbuf_putn(out, (const char *)ps->p, (size_t)n);
            ps->p += n;
        }
    }
}

static struct jv *parse_string(struct parser *ps)
{
    struct sbuf b = {0};
    ps->p++;
    if (!parse_string_raw(ps, &b)) {
        sbuf_free(&b);
        return NULL;
    }
    struct jv *v = new_value(J_STRING);
    v->s = b.s;
    v->n = b.len;
    return v;
}

static struct jv *parse_array(struct parser *ps)
{
    struct jv *arr = new_value(J_ARRAY);
    ps->p++;
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == ']') {
        ps->p++;
        return arr;
    }
    for (;;) {
        struct jv *item = parse_value(ps);
        if (!item)
            break;
        jv_push(arr, item);
        skip_blanks(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == ']') {
            ps->p++;
            return arr;
        }
        fail(ps, "expected ',' or ']' in an array");
        break;
    }
    jv_free(arr);
    return NULL;
}

/* One "key": value member into obj; 0 on error. */
static int parse_member(struct parser *ps, struct jv *obj)
{
    skip_blanks(ps);
    if (ps->p >= ps->end || *ps->p != '"')
        return fail(ps, "expected a string key"), 0;
    struct sbuf key = {0};
    ps->p++;
    if (!parse_string_raw(ps, &key)) {
        sbuf_free(&key);
        return 0;
    }
    skip_blanks(ps);
    if (ps->p >= ps->end || *ps->p != ':') {
        sbuf_free(&key);
        return fail(ps, "expected ':' after a key"), 0;
    }
    ps->p++;
    struct jv *val = parse_value(ps);
    if (!val) {
        sbuf_free(&key);
        return 0;
    }
    xgrow(&obj->u.members, &obj->cap, obj->n + 1, sizeof(struct jmember));
    obj->u.members[obj->n++] = (struct jmember){key.s, val};
    return 1;
}

static struct jv *parse_object(struct parser *ps)
{
    struct jv *obj = new_value(J_OBJECT);
    ps->p++;
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        ps->p++;
        return obj;
    }
    while (parse_member(ps, obj)) {
        skip_blanks(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == '}') {
            ps->p++;
            return obj;
        }
        fail(ps, "expected ',' or '}' in an object");
        break;
    }
    jv_free(obj);
    return NULL;
}

static struct jv *parse_value(struct parser *ps)
{
    skip_blanks(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of input");
    struct jv *v = NULL;
    unsigned char c = *ps->p;
    if (c == '{' || c == '[') {
        if (++ps->depth > JSON_MAX_DEPTH)
            return fail(ps, "nesting too deep");
        v = c == '{' ? parse_object(ps) : parse_array(ps);
        ps->depth--;
    } else if (c == '"') {
        v = parse_string(ps);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        v = parse_number(ps);
    } else if (literal(ps, "true")) {
        v = new_value(J_TRUE);
    } else if (literal(ps, "false")) {
        v = new_value(J_FALSE);
    } else if (literal(ps, "null")) {
        v = new_value(J_NULL);
    } else {
        return fail(ps, "expected a value");
    }
    return v;
}

struct jv *json_parse(const char *text, size_t len, struct json_error *err)
{
    struct parser ps = {(const unsigned char *)text, (const unsigned char *)text,
                        (const unsigned char *)text + len, err, 0};
    if (err)
        memset(err, 0, sizeof(*err));
    struct jv *v = parse_value(&ps);
    if (!v)
        return NULL;
    skip_blanks(&ps);
    if (ps.p != ps.end) {
        jv_free(v);
        return fail(&ps, "unexpected text after the value");
    }
    return v;
}

void jv_free(struct jv *v)
{
    if (!v)
        return;
    if (v->type == J_ARRAY) {
        for (size_t i = 0; i < v->n; i++)
            jv_free(v->u.items[i]);
        free(v->u.items);
    } else if (v->type == J_OBJECT) {
        for (size_t i = 0; i < v->n; i++) {
            free(v->u.members[i].key);
            jv_free(v->u.members[i].val);
        }
        free(v->u.members);
    }
    free(v->s);
    free(v);
}

/* ---- reading ------------------------------------------------------------ */

int jv_is(const struct jv *v, enum jtype t)
{
    return v && v->type == t;
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
    if (!jv_is(obj, J_OBJECT))
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (!strcmp(obj->u.members[i].key, key))
            return obj->u.members[i].val;
    return NULL;
}

const struct jv *jv_at(const struct jv *arr, size_t i)
{
    return jv_is(arr, J_ARRAY) && i < arr->n ? arr->u.items[i] : NULL;
}

size_t jv_len(const struct jv *arr)
{
    return jv_is(arr, J_ARRAY) ? arr->n : 0;
}

const char *jv_str(const struct jv *v)
{
    return jv_is(v, J_STRING) ? v->s : NULL;
}

const char *jv_get_str(const struct jv *obj, const char *key)
{
    return jv_str(jv_get(obj, key));
}

long jv_int(const struct jv *v, long def)
{
    if (!jv_is(v, J_NUMBER) || v->num != floor(v->num) || fabs(v->num) > 9e15)
        return def;
    return (long)v->num;
}

/* ---- building ------------------------------------------------------------ */

struct jv *jv_null(void)
{
    return new_value(J_NULL);
}

struct jv *jv_bool(int b)
{
    return new_value(b ? J_TRUE : J_FALSE);
}

struct jv *jv_long(long n)
{
    struct jv *v = new_value(J_NUMBER);
    struct sbuf b = {0};
    sbuf_printf(&b, "%ld", n);
    v->s = b.s;
    v->num = (double)n;
    return v;
}

struct jv *jv_string(const char *s)
{
    if (!s)
        return jv_null();
    struct jv *v = new_value(J_STRING);
    v->s = xstrdup(s);
    v->n = strlen(s);
    return v;
}

struct jv *jv_array(void)
{
    return new_value(J_ARRAY);
}

struct jv *jv_object(void)
{
    return new_value(J_OBJECT);
}

struct jv *jv_clone(const struct jv *v)
{
    if (!v)
        return jv_null();
    struct jv *c = new_value(v->type);
    if (v->s) {
        c->s = xstrndup(v->s, v->type == J_STRING ? v->n : strlen(v->s));
        c->n = v->type == J_STRING ? v->n : 0;
    }
    c->num = v->num;
    if (v->type == J_ARRAY)
        for (size_t i = 0; i < v->n; i++)
            jv_push(c, jv_clone(v->u.items[i]));
    if (v->type == J_OBJECT)
        for (size_t i = 0; i < v->n; i++) {
            xgrow(&c->u.members, &c->cap, c->n + 1, sizeof(struct jmember));
            c->u.members[c->n++] =
                (struct jmember){xstrdup(v->u.members[i].key), jv_clone(v->u.members[i].val)};
        }
    return c;
}

void jv_push(struct jv *arr, struct jv *item)
{
    xgrow(&arr->u.items, &arr->cap, arr->n + 1, sizeof(struct jv *));
    arr->u.items[arr->n++] = item;
}

void jv_set(struct jv *obj, const char *key, struct jv *val)
{
    for (size_t i = 0; i < obj->n; i++) {
        if (!strcmp(obj->u.members[i].key, key)) {
            jv_free(obj->u.members[i].val);
            obj->u.members[i].val = val;
            return;
        }
    }
    xgrow(&obj->u.members, &obj->cap, obj->n + 1, sizeof(struct jmember));
    obj->u.members[obj->n++] = (struct jmember){xstrdup(key), val};
}

/* ---- writing ------------------------------------------------------------ */

void json_write_str(struct sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    sbuf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                                      : NULL;
        if (esc) {
            sbuf_puts(b, esc);
        } else if (c < 0x20 || c == 0x7f) {
            char u[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
            sbuf_puts(b, u);
        } else {
            sbuf_putc(b, (char)c);
        }
    }
    sbuf_putc(b, '"');
}

static void newline(struct sbuf *b, int indent, int level)
{
    if (!indent)
        return;
    sbuf_putc(b, '\n');
    for (int i = 0; i < indent * level; i++)
        sbuf_putc(b, ' ');
}

static void write_value(struct sbuf *b, const struct jv *v, int indent, int level)
{
    switch (v->type) {
    case J_NULL:
        sbuf_puts(b, "null");
        return;
    case J_FALSE:
        sbuf_puts(b, "false");
        return;
    case J_TRUE:
        sbuf_puts(b, "true");
        return;
    case J_NUMBER:
        sbuf_puts(b, v->s);
        return;
    case J_STRING:
        json_write_str(b, v->s, v->n);
        return;
    case J_ARRAY:
    case J_OBJECT:
        break;
    }
    int obj = v->type == J_OBJECT;
    sbuf_putc(b, obj ? '{' : '[');
    for (size_t i = 0; i < v->n; i++) {
        if (i)
            sbuf_putc(b, ',');
        newline(b, indent, level + 1);
        if (obj) {
            json_write_str(b, v->u.members[i].key, strlen(v->u.members[i].key));
            sbuf_puts(b, indent ? ": " : ":");
        }
        write_value(b, obj ? v->u.members[i].val : v->u.items[i], indent, level + 1);
    }
    if (v->n)
        newline(b, indent, level);
    sbuf_putc(b, obj ? '}' : ']');
}

void jv_write(struct sbuf *b, const struct jv *v, int indent)
{
    write_value(b, v, indent, 0);
}
