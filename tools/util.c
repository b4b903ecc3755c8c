/*
 * util.c - helpers of the `ulockdep` command (see util.h).  Single-threaded;
 * the cached working directory is the only global state.
 */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(void)
{
    fputs("ulockdep: out of memory\n", stderr);
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void xgrow(void *items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void **p = items;
    *p = xrealloc(*p, c * size);
    *cap = c;
}

void tool_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ulockdep: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- string buffer --------------------------------------------------- */

void sbuf_putn(struct sbuf *b, const char *s, size_t n)
{
    xgrow(&b->s, &b->cap, b->len + n + 1, 1);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sbuf_puts(struct sbuf *b, const char *s)
{
    sbuf_putn(b, s, strlen(s));
}

void sbuf_putc(struct sbuf *b, char c)
{
    sbuf_putn(b, &c, 1);
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    xgrow(&b->s, &b->cap, b->len + (size_t)n + 1, 1);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *sbuf_cstr(struct sbuf *b)
{
    return b->s ? b->s : "";
}

void sbuf_reset(struct sbuf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void sbuf_free(struct sbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

/* ---- string-keyed map ------------------------------------------------ */

uint64_t fnv_str(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull; /* separator, as in lib/report/report.c */
}

static size_t slot_of(const struct strmap *m, const char *key)
{
    size_t i = (size_t)fnv_str(FNV_INIT, key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key))
        i = (i + 1) & (m->cap - 1);
    return i;
}

long strmap_get(const struct strmap *m, const char *key)
{
    if (!m->cap)
        return -1;
    size_t i = slot_of(m, key);
    return m->keys[i] ? m->vals[i] : -1;
}

static void rehash(struct strmap *m)
{
    struct strmap bigger = {xcalloc(m->cap ? m->cap * 2 : 16, sizeof(char *)),
                            xcalloc(m->cap ? m->cap * 2 : 16, sizeof(long)),
                            m->cap ? m->cap * 2 : 16, m->n};
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = slot_of(&bigger, m->keys[i]);
        bigger.keys[j] = m->keys[i];
        bigger.vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    *m = bigger;
}

long strmap_put(struct strmap *m, const char *key, long val)
{
    if ((m->n + 1) * 4 > m->cap * 3)
        rehash(m);
    size_t i = slot_of(m, key);
    if (m->keys[i])
        return m->vals[i];
    m->keys[i] = xstrdup(key);
    m->vals[i] = val;
    m->n++;
    return val;
}

void strmap_free(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}

/* ---- inputs ------------------------------------------------------------ */

static void pathlist_push(struct pathlist *l, char *path)
{
    xgrow(&l->paths, &l->cap, l->n + 1, sizeof(char *));
    l->paths[l->n++] = path;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcmp(s + n - k, suffix);
}

static int add_directory(struct pathlist *l, const char *dir, const char *ext)
{
    DIR *d = opendir(dir);
    if (!d) {
        tool_error("%s: %s", dir, strerror(errno));
        return -1;
    }
    size_t first = l->n;
    int outputs = 0; /* ulockdep.PID.* files of any kind */
    for (struct dirent *e; (e = readdir(d));) {
        outputs += !strncmp(e->d_name, "ulockdep.", 9);
        if (!ends_with(e->d_name, ext))
            continue;
        struct sbuf p = {0};
        sbuf_printf(&p, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
        struct stat st;
        if (stat(p.s, &st) == 0 && S_ISREG(st.st_mode))
            pathlist_push(l, p.s);
        else
            sbuf_free(&p);
    }
    closedir(d);
    if (l->n == first && outputs)
        return 0; /* processes ran (their graphs are here) but none reported: files are
                     created at the first report */
    if (l->n == first) { /* nothing ran instrumented, or the wrong directory */
        tool_error("%s: no *%s file in this directory", dir, ext);
        return -1;
    }
    qsort(l->paths + first, l->n - first, sizeof(char *), by_name);
    return 0;
}

int pathlist_add(struct pathlist *l, const char *arg, const char *ext)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        tool_error("%s: %s", arg, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return add_directory(l, arg, ext);
    pathlist_push(l, xstrdup(arg));
    return 0;
}

void pathlist_free(struct pathlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
    memset(l, 0, sizeof(*l));
}

/* ---- paths -------------------------------------------------------------- */

static const char *cwd(void)
{
    static char buf[4096];
    static int done;
    if (!done) {
        done = 1;
        if (!getcwd(buf, sizeof(buf)))
            buf[0] = '\0';
    }
    return buf;
}

const char *path_relative(const char *file)
{
    const char *dir = cwd();
    size_t n = strlen(dir);
    if (file[0] == '/' && n > 1 && !strncmp(file, dir, n) && file[n] == '/' && file[n + 1])
        return file + n + 1;
    while (file[0] == '.' && file[1] == '/' && file[2])
        file += 2;
    return file;
}

const char *path_basename(const char *file)
{
    const char *slash = strrchr(file, '/');
    return slash ? slash + 1 : file;
}

void path_uri(struct sbuf *b, const char *file)
{
    const char *rel = path_relative(file);
    if (rel[0] == '/')
        sbuf_puts(b, "file://");
    uri_encode(b, rel);
}

void uri_encode(struct sbuf *b, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/!$&'()*+,;=@", *p)) {
            sbuf_putc(b, (char)*p);
        } else {
            sbuf_putc(b, '%');
            sbuf_putc(b, hex[*p >> 4]);
            sbuf_putc(b, hex[*p & 15]);
        }
    }
}

ssize_t read_line_capped(FILE *f, char **line, size_t *cap, size_t max)
{
    size_t len = 0;
    int c = EOF;
    while (len < max && (c = getc_unlocked(f)) != EOF) {
        if (len + 2 > *cap) {
            *cap = *cap ? *cap * 2 : 256;
            *line = xrealloc(*line, *cap);
        }
        (*line)[len++] = (char)c;
        if (c == '\n')
            break;
    }
    if (len == 0 && c == EOF)
        return -1;
    if (*line)
        (*line)[len] = '\0';
    return len == max && c != '\n' ? -2 : (ssize_t)len;
}

size_t tool_line_max(void)
{
    const char *env = getenv("ULOCKDEP_LINE_MAX");
    long v = env ? atol(env) : 0;
    return v > 0 ? (size_t)v : LINE_MAX_BYTES;
}
