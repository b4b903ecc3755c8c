/*
 * ulockdep - the command-line front end.
 *
 *   ulockdep run [options] -- program [args...]   run a program under the validator
 *   ulockdep options                               list ULOCKDEP_OPTIONS keys
 *   ulockdep version
 *
 * `run` only prepares the environment (LD_PRELOAD, ULOCKDEP_OPTIONS) and
 * execs the program, so children and exec'd programs stay instrumented.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ULD_VERSION
#define ULD_VERSION "unknown"
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ulockdep run [--log FILE] [--json FILE] [--exitcode N] [-o KEY=VALUE]...\n"
            "                    [--] PROGRAM [ARGS...]\n"
            "       ulockdep options      list the options (ULOCKDEP_OPTIONS=key=value:...)\n"
            "       ulockdep version\n");
}

/* libulockdep.so: $ULOCKDEP_LIB, else next to this program (installed or build tree). */
static int find_library(char *out, size_t n)
{
    const char *env = getenv("ULOCKDEP_LIB");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return access(out, R_OK) == 0;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len < 0)
        return 0;
    exe[len] = '\0';
    const char *dir = dirname(exe);
    static const char *const candidates[] = {
        "%s/../lib/libulockdep.so",
        "%s/../lib/x86_64-linux-gnu/libulockdep.so",
        "%s/../lib64/libulockdep.so",
        "%s/../preload/libulockdep.so",
    };
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        snprintf(out, n, candidates[i], dir);
        if (access(out, R_OK) == 0)
            return 1;
    }
    return 0;
}

/* Append "key=value" to the option string, ':'-separated. */
static int add_option(char *opts, size_t n, const char *key, const char *value)
{
    size_t len = strlen(opts);
    int w = snprintf(opts + len, n - len, "%s%s%s%s", len ? ":" : "", key,
                     value ? "=" : "", value ? value : "");
    return w > 0 && (size_t)w < n - len;
}

static int cmd_run(int argc, char **argv)
{
    char opts[8192] = "";
    const char *inherited = getenv("ULOCKDEP_OPTIONS");
    if (inherited)
        snprintf(opts, sizeof(opts), "%s", inherited);
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        int ok = 1;
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (a[0] != '-') {
            break;
        } else if (!strcmp(a, "--log") && i + 1 < argc) {
            ok = add_option(opts, sizeof(opts), "log_path", argv[++i]);
        } else if (!strcmp(a, "--json") && i + 1 < argc) {
            ok = add_option(opts, sizeof(opts), "json_path", argv[++i]);
        } else if (!strcmp(a, "--exitcode") && i + 1 < argc) {
            ok = add_option(opts, sizeof(opts), "exitcode", argv[++i]);
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            ok = add_option(opts, sizeof(opts), argv[++i], NULL);
        } else {
            fprintf(stderr, "ulockdep run: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "ulockdep run: options too long\n");
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "ulockdep run: no program given\n");
        usage(stderr);
        return 2;
    }
    char lib[PATH_MAX];
    if (!find_library(lib, sizeof(lib))) {
        fprintf(stderr, "ulockdep: cannot find libulockdep.so (set ULOCKDEP_LIB)\n");
        return 2;
    }
    char preload[PATH_MAX * 2];
    const char *old = getenv("LD_PRELOAD");
    snprintf(preload, sizeof(preload), "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
    setenv("LD_PRELOAD", preload, 1);
    if (opts[0])
        setenv("ULOCKDEP_OPTIONS", opts, 1);
    execvp(argv[i], argv + i);
    fprintf(stderr, "ulockdep: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}

static int cmd_options(void)
{
    char lib[PATH_MAX];
    if (!find_library(lib, sizeof(lib))) {
        fprintf(stderr, "ulockdep: cannot find libulockdep.so (set ULOCKDEP_LIB)\n");
        return 2;
    }
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    void (*print)(int) = h ? (void (*)(int))dlsym(h, "uld_print_options") : NULL;
    if (!print) {
        fprintf(stderr, "ulockdep: %s: %s\n", lib, dlerror());
        return 2;
    }
    printf("ULOCKDEP_OPTIONS=key=value:key=value...\n\n  %-18s %-10s %s\n", "option",
           "default", "meaning");
    fflush(stdout);
    print(1);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc - 2, argv + 2);
    if (!strcmp(argv[1], "options"))
        return cmd_options();
    if (!strcmp(argv[1], "version")) {
        printf("ulockdep %s\n", ULD_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "ulockdep: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
