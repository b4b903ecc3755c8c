/*
 * source.c - one line of a source file, for reports: the statement that
 * took a lock or initialised it, read at report time from the path the
 * debug info names.  Called under the report lock (one static buffer).
 * Only absolute paths of regular files are read: a relative DWARF path
 * (a distribution's "./nptl/...") would be looked up in the program's
 * working directory and could show an unrelated file.  Anything that does
 * not work (no file, no permission, a FIFO, a line past the end) gives no
 * line and no message.  The descriptor is closed before returning, errno
 * is the caller's to restore (entry points do).
 */
#include "base/internal.h"
#include "source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define SOURCE_MAX_BYTES (64L << 20) /* a generated file is not read to the end */

static char chunk[16384];
static char text[512]; /* the wanted line; it can straddle two chunks */

/* Copy one line into out: leading blanks dropped, tabs and controls as spaces. */
static void copy_line(const char *s, size_t len, char *out, size_t n)
{
    size_t i = 0, k = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    for (; i < len && k + 1 < n; i++)
        out[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
    while (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = '\0';
}

int uld_source_line(const char *path, int line, char *out, size_t n)
{
    if (!path || path[0] != '/' || line <= 0 || n < 2)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat st;
    int found = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        size_t len = 0;
        int cur = 1;
        long total = 0;
        ssize_t got;
        while (!found && total < SOURCE_MAX_BYTES &&
               (got = read(fd, chunk, sizeof(chunk))) > 0) {
            total += got;
            for (ssize_t i = 0; i < got && !found; i++) {
                if (cur == line && chunk[i] != '\n' && len < sizeof(text))
                    text[len++] = chunk[i];
                if (chunk[i] == '\n' && cur++ == line)
                    found = 1;
            }
        }
        if (!found && cur == line && len) /* last line without a newline */
            found = 1;
        if (found) {
            copy_line(text, len, out, n);
            found = out[0] != '\0';
        }
    }
    close(fd);
    if (!found)
        out[0] = '\0';
    return found;
}
