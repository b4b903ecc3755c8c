/*
 * suppress.c - parsing and matching suppression entries.  Memory comes from
 * the validator's arena; parsing happens once at start-up (or in the tool).
 */
#include "suppress.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int uld_glob_match(const char *p, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*p == '*') {
            star = p++;
            resume = s;
        } else if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (star) {
            p = star + 1;
            s = ++resume;
        } else {
            return 0;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

static char *dup_range(const char *s, size_t n)
{
    char *d = uld_alloc(n + 1);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Trim blanks at both ends of [*s, *e). */
static void trim(const char **s, const char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t' || **s == '\r'))
        (*s)++;
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
        (*e)--;
}

static void free_entry(struct uld_suppression *s)
{
    if (s->kind)
        uld_free(s->kind, strlen(s->kind) + 1);
    if (s->pattern)
        uld_free(s->pattern, strlen(s->pattern) + 1);
    uld_free(s, sizeof(*s));
}

void uld_supp_free(struct uld_suppression *list)
{
    while (list) {
        struct uld_suppression *next = list->next;
        free_entry(list);
        list = next;
    }
}

static struct uld_suppression *parse_line(const char *file, int lineno, const char *s,
                                          const char *e, int (*is_kind)(const char *),
                                          uld_supp_error_fn *error)
{
    trim(&s, &e);
    if (s == e || *s == '#')
        return NULL;
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (!colon) {
        error(file, lineno, "expected KIND:PATTERN");
        return NULL;
    }
    const char *ks = s, *ke = colon, *ps = colon + 1, *pe = e;
    trim(&ks, &ke);
    trim(&ps, &pe);
    struct uld_suppression *sup = uld_alloc(sizeof(*sup));
    if (!sup)
        return NULL;
    sup->kind = dup_range(ks, (size_t)(ke - ks));
    sup->pattern = dup_range(ps, (size_t)(pe - ps));
    if (!sup->kind || !sup->pattern || ps == pe || ks == ke ||
        (strcmp(sup->kind, "*") && !is_kind(sup->kind))) {
        error(file, lineno, ks == ke || ps == pe ? "empty kind or pattern"
                                                 : "unknown report kind");
        free_entry(sup);
        return NULL;
    }
    return sup;
}

struct uld_suppression *uld_supp_parse_n(const char *file, const char *text, size_t len,
                                         int (*is_kind)(const char *kind),
                                         uld_supp_error_fn *error)
{
    struct uld_suppression *head = NULL, **tail = &head;
    int lineno = 0;
    for (const char *s = text, *end = text + len; s < end;) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e)
            e = end;
        struct uld_suppression *sup = NULL;
        if (memchr(s, '\0', (size_t)(e - s))) /* a binary file, or a corrupt line */
            error(file, ++lineno, "contains a NUL byte");
        else
            sup = parse_line(file, ++lineno, s, e, is_kind, error);
        if (sup) {
            *tail = sup;
            tail = &sup->next;
        }
        s = e + 1;
    }
    return head;
}

struct uld_suppression *uld_supp_parse(const char *file, const char *text,
                                       int (*is_kind)(const char *kind),
                                       uld_supp_error_fn *error)
{
    return uld_supp_parse_n(file, text, strlen(text), is_kind, error);
}

struct uld_suppression *uld_supp_load(const char *path, int (*is_kind)(const char *kind),
                                      uld_supp_error_fn *error)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error(path, 0, "cannot be read");
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = uld_alloc(cap);
    for (ssize_t n; text && (n = read(fd, text + len, cap - len - 1)) > 0;) {
        len += (size_t)n;
        if (len + 1 == cap) { /* grow: arena blocks are not resized in place */
            char *bigger = uld_alloc(cap * 2);
            if (bigger)
                memcpy(bigger, text, len);
            uld_free(text, cap);
            text = bigger;
            cap *= 2;
        }
    }
    close(fd);
    if (!text)
        return NULL;
    text[len] = '\0';
    struct uld_suppression *list = uld_supp_parse_n(path, text, len, is_kind, error);
    uld_free(text, cap);
    return list;
}

struct uld_suppression *uld_supp_match(struct uld_suppression *list, const char *kind,
                                       const char *const *strings, int n)
{
    for (struct uld_suppression *s = list; s; s = s->next) {
        if (strcmp(s->kind, "*") && strcmp(s->kind, kind))
            continue;
        for (int i = 0; i < n; i++) {
            if (strings[i] && uld_glob_match(s->pattern, strings[i])) {
                s->hits++;
                return s;
            }
        }
    }
    return NULL;
}
