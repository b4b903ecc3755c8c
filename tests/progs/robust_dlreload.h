/*
 * robust_dlreload.h - shared by robust_dlreload_*.c: load
 * robust/librobust_reload_{a,b}.so (tests/progs/robust/robust_reload.c) next
 * to the binary, and read this process's graph dump (graph_path) back.
 */
#ifndef ROBUST_DLRELOAD_H
#define ROBUST_DLRELOAD_H

#include "progs.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

struct reload_lib {
    void *handle;
    void *base; /* where the loader mapped it */
    long (*forward)(void);
    long (*backward)(void);
    pthread_mutex_t *(*make)(void);
    long (*with)(pthread_mutex_t *, int);
};

static void reload_open(struct reload_lib *l, char variant)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
    CHECK(n > 0);
    path[n] = '\0';
    sprintf(strrchr(path, '/'), "/robust/librobust_reload_%c.so", variant);
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle)
        fprintf(stderr, "dlopen: %s (is add_subdirectory(robust) missing?)\n", dlerror());
    CHECK(l->handle != NULL);
    *(void **)&l->forward = dlsym(l->handle, "reload_forward");
    *(void **)&l->backward = dlsym(l->handle, "reload_backward");
    *(void **)&l->make = dlsym(l->handle, "reload_make");
    *(void **)&l->with = dlsym(l->handle, "reload_with");
    CHECK(l->forward && l->backward && l->make && l->with);
    Dl_info info;
    CHECK(dladdr((void *)l->forward, &info) != 0);
    l->base = info.dli_fbase;
}

/* The graph dump written so far ("" when there is none: the native run). */
static char *read_dump(const char *path)
{
    static char text[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f)
        return strcpy(text, "");
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Under the validator (it sets ULOCKDEP_OPTIONS), a dump must exist. */
static int under_validator(void)
{
    return getenv("ULOCKDEP_OPTIONS") != NULL;
}

#endif
