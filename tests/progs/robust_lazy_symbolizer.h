/*
 * robust_lazy_symbolizer.h - shared by robust_lazy_symbolizer_*.c: which of
 * the symboliser's libraries are mapped in this process right now.
 */
#ifndef ROBUST_LAZY_SYMBOLIZER_H
#define ROBUST_LAZY_SYMBOLIZER_H

#include "progs.h"

/* Prints the libraries of `names` found in /proc/self/maps; returns how many. */
static int mapped_libraries(const char *const *names, int n)
{
    char line[4096];
    int found[16] = {0}, count = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL && n <= 16);
    while (fgets(line, sizeof(line), f))
        for (int i = 0; i < n; i++)
            if (!found[i] && strstr(line, names[i])) {
                found[i] = 1;
                count++;
                fprintf(stderr, "mapped: %s", strchr(line, '/') ? strchr(line, '/') : line);
            }
    fclose(f);
    return count;
}

static const char *const symbolizer_libs[] = {"/libdw.so", "/libdw-", "/libelf.so", "/libelf-",
                                              "/libdebuginfod", "/libcurl"};

#endif
