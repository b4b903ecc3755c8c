/*
 * fmt.c - printf-style formatting into caller-provided buffers, without
 * malloc, locale or stdio, so reports can be written from any context.
 * Supports %s %c %d %i %u %x %p %% with l/ll/z sizes, '-', '0', a width and,
 * for %s, a precision (digits or '*').
 */
#include "internal.h"

#include <string.h>

void uld_buf_init(struct uld_buf *b, char *mem, size_t cap, int fd)
{
    b->data = mem;
    b->cap = cap;
    b->len = 0;
    b->fd = fd;
}

void uld_buf_flush(struct uld_buf *b)
{
    if (b->fd >= 0 && b->len > 0) {
        uld_write_all(b->fd, b->data, b->len);
        b->len = 0;
    }
}

/* Keeps one byte free for uld_buf_cstr()'s terminator. */
void uld_buf_putc(struct uld_buf *b, char c)
{
    if (b->len + 1 >= b->cap) {
        if (b->fd < 0)
            return; /* truncate */
        uld_buf_flush(b);
    }
    b->data[b->len++] = c;
}

void uld_buf_puts(struct uld_buf *b, const char *s)
{
    if (!s)
        s = "(null)";
    while (*s) {
        size_t room = b->cap - 1 - b->len;
        size_t n = strlen(s);
        if (room == 0) {
            if (b->fd < 0)
                return;
            uld_buf_flush(b);
            continue;
        }
        if (n > room)
            n = room;
        memcpy(b->data + b->len, s, n);
        b->len += n;
        s += n;
    }
}

const char *uld_buf_cstr(struct uld_buf *b)
{
    b->data[b->len < b->cap ? b->len : b->cap - 1] = '\0';
    return b->data;
}

static void put_padded(struct uld_buf *b, const char *s, size_t n, int width, int left,
                       char pad)
{
    int fill = width > (int)n ? width - (int)n : 0;
    if (!left && pad == '0' && n > 0 && s[0] == '-') {
        uld_buf_putc(b, '-');
        s++;
        n--;
    }
    if (!left)
        while (fill-- > 0)
            uld_buf_putc(b, pad);
    for (size_t i = 0; i < n; i++)
        uld_buf_putc(b, s[i]);
    if (left)
        while (fill-- > 0)
            uld_buf_putc(b, ' ');
}

static size_t format_u64(char *out, unsigned long long v, unsigned base)
{
    char tmp[24];
    size_t n = 0;
    do {
        unsigned d = (unsigned)(v % base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

void uld_buf_vprintf(struct uld_buf *b, const char *fmt, va_list ap)
{
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            uld_buf_putc(b, *p);
            continue;
        }
        p++;
        int left = 0, width = 0, lng = 0;
        char pad = ' ';
        for (; *p == '-' || *p == '0'; p++) {
            if (*p == '-')
                left = 1;
            else
                pad = '0';
        }
        if (*p == '*') {
            width = va_arg(ap, int);
            p++;
        }
        for (; *p >= '0' && *p <= '9'; p++)
            width = width * 10 + (*p - '0');
        int precision = -1;
        if (*p == '.') {
            p++;
            precision = 0;
            if (*p == '*') {
                precision = va_arg(ap, int);
                p++;
            }
            for (; *p >= '0' && *p <= '9'; p++)
                precision = precision * 10 + (*p - '0');
        }
        for (; *p == 'l' || *p == 'z'; p++)
            lng++;
        char num[32];
        size_t n;
        unsigned long long u;
        switch (*p) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            size_t len = precision >= 0 ? strnlen(s, (size_t)precision) : strlen(s);
            put_padded(b, s, len, width, left, ' ');
            break;
        }
        case 'c':
            num[0] = (char)va_arg(ap, int);
            put_padded(b, num, 1, width, left, ' ');
            break;
        case 'd':
        case 'i': {
            long long v = lng >= 2 ? va_arg(ap, long long)
                          : lng == 1 ? va_arg(ap, long)
                                     : va_arg(ap, int);
            n = 0;
            if (v < 0) {
                num[n++] = '-';
                u = (unsigned long long)(-(v + 1)) + 1;
            } else {
                u = (unsigned long long)v;
            }
            n += format_u64(num + n, u, 10);
            put_padded(b, num, n, width, left, pad);
            break;
        }
        case 'u':
        case 'x':
            u = lng >= 2 ? va_arg(ap, unsigned long long)
                : lng == 1 ? va_arg(ap, unsigned long)
                           : va_arg(ap, unsigned);
            n = format_u64(num, u, *p == 'x' ? 16 : 10);
            put_padded(b, num, n, width, left, pad);
            break;
        case 'p':
            num[0] = '0';
            num[1] = 'x';
            n = 2 + format_u64(num + 2, (uintptr_t)va_arg(ap, void *), 16);
            put_padded(b, num, n, width, left, ' ');
            break;
        case '%':
            uld_buf_putc(b, '%');
            break;
        case '\0':
            return;
        default:
            uld_buf_putc(b, '%');
            uld_buf_putc(b, *p);
        }
    }
}

void uld_buf_printf(struct uld_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uld_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

int uld_snprintf(char *dst, size_t n, const char *fmt, ...)
{
    struct uld_buf b;
    va_list ap;
    if (n == 0)
        return 0;
    uld_buf_init(&b, dst, n, -1);
    va_start(ap, fmt);
    uld_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    uld_buf_cstr(&b);
    return (int)b.len;
}

void uld_buf_json_str(struct uld_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    if (!s) {
        uld_buf_puts(b, "null");
        return;
    }
    uld_buf_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            uld_buf_putc(b, '\\');
            uld_buf_putc(b, (char)c);
        } else if (c == '\n') {
            uld_buf_puts(b, "\\n");
        } else if (c == '\t') {
            uld_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            uld_buf_puts(b, "\\u00");
            uld_buf_putc(b, hex[c >> 4]);
            uld_buf_putc(b, hex[c & 15]);
        } else {
            uld_buf_putc(b, (char)c);
        }
    }
    uld_buf_putc(b, '"');
}
