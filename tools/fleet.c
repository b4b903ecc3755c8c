/*
 * fleet.c - the processes behind a directory of outputs (see fleet.h).
 * Only first lines are read: a report file's first record and a graph
 * dump's header both carry "pid".  Single-threaded.
 */
#include "fleet.h"

#include "json.h"

#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#define FIRST_LINE_MAX (1 << 20) /* a report line holds its text: long enough */

long fleet_first_pid(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = xmalloc(FIRST_LINE_MAX);
    long pid = -1;
    if (fgets(line, FIRST_LINE_MAX, f)) {
        struct json_error err;
        struct jv *obj = json_parse(line, strcspn(line, "\n"), &err);
        pid = jv_int(jv_get(obj, "pid"), -1);
        jv_free(obj);
    }
    free(line);
    fclose(f);
    return pid;
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* The files ending in ext in dir; none is not an error here. */
static void list_dir(struct pathlist *files, const char *dir, const char *ext)
{
    DIR *d = opendir(dir);
    size_t lext = strlen(ext);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= lext || strcmp(e->d_name + len - lext, ext))
            continue;
        struct sbuf p = {0};
        sbuf_printf(&p, "%s/%s", dir, e->d_name);
        pathlist_add(files, sbuf_cstr(&p), ext);
        sbuf_free(&p);
    }
    if (d)
        closedir(d);
}

size_t fleet_pids(char *const *args, int n, const char *ext, long **out)
{
    struct pathlist files = {0};
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode))
            list_dir(&files, args[i], ext);
    }
    long *pids = xcalloc(files.n + 1, sizeof(long));
    size_t k = 0;
    for (size_t i = 0; i < files.n; i++) {
        long pid = fleet_first_pid(files.paths[i]);
        if (pid >= 0)
            pids[k++] = pid;
    }
    pathlist_free(&files);
    qsort(pids, k, sizeof(long), by_long);
    *out = pids;
    return k;
}

long fleet_missing(const long *pids, size_t n, const long *have, size_t nhave)
{
    long missing = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && pids[i] == pids[i - 1])
            continue;
        if (!nhave || !bsearch(&pids[i], have, nhave, sizeof(long), by_long))
            missing++;
    }
    return missing;
}
