/*
 * cmd_run.c - `ulockdep run` and `ulockdep options`.
 *
 * `run` only prepares the environment (LD_PRELOAD, ULOCKDEP_OPTIONS) and
 * execs the program, so children and exec'd programs stay instrumented.
 * With --out DIR every process writes its own report, log and graph files
 * into DIR (the library expands %p to the pid).  An option set explicitly
 * (in the inherited ULOCKDEP_OPTIONS, or with --log, --json, -o) wins over
 * the --out default for the same key.  Single-threaded.
 */
#include "commands.h"
#include "util.h"

#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OPTS_MAX 8192
#define LIB_PATH_MAX 512 /* ULD_PATH_MAX: longest path option the library takes */

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
    int w = snprintf(opts + len, n - len, "%s%s%s%s", len ? ":" : "", key, value ? "=" : "",
                     value ? value : "");
    return w > 0 && (size_t)w < n - len;
}

/* Is `key` set in a ':'-separated option string? */
static int has_key(const char *opts, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = opts; *p;) {
        size_t len = strcspn(p, ":");
        size_t klen = strcspn(p, "=:");
        if (klen == k && !strncmp(p, key, k))
            return 1;
        p += len + (p[len] == ':');
    }
    return 0;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
        return errno = ENAMETOOLONG, -1;
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return errno = ENOTDIR, -1;
    return 0;
}

/* An absolute path the library can take as an option value, or -1 after an error line. */
static int option_path(const char *what, const char *path, char *abs)
{
    if (!realpath(path, abs)) {
        tool_error("run: %s %s: %s", what, path, strerror(errno));
        return -1;
    }
    if (strchr(abs, ':')) {
        tool_error("run: %s %s: a path with ':' cannot be passed in ULOCKDEP_OPTIONS", what, abs);
        return -1;
    }
    if (strlen(abs) >= LIB_PATH_MAX) {
        tool_error("run: %s %s: path too long for the library (%d bytes at most)", what, abs,
                   LIB_PATH_MAX - 1);
        return -1;
    }
    return 0;
}

/* The --out defaults for keys not set explicitly, then the explicit options. */
static int out_options(const char *dir, const char *explicit_opts, char *opts, size_t n)
{
    static const char *const keys[][2] = {
        {"json_path", "jsonl"}, {"log_path", "log"}, {"graph_path", "graph"}};
    char abs[PATH_MAX], value[PATH_MAX + 32];
    if (make_dirs(dir) != 0) {
        tool_error("run: --out %s: %s", dir, strerror(errno));
        return -1;
    }
    if (option_path("--out", dir, abs) < 0)
        return -1;
    opts[0] = '\0';
    for (int i = 0; i < 3; i++) {
        if (has_key(explicit_opts, keys[i][0]))
            continue;
        snprintf(value, sizeof(value), "%s/ulockdep.%%p.%s", abs, keys[i][1]);
        if (strlen(value) >= LIB_PATH_MAX) {
            tool_error("run: --out %s: path too long for the library (%d bytes at most)", abs,
                       LIB_PATH_MAX - 1);
            return -1;
        }
        add_option(opts, n, keys[i][0], value);
    }
    if (explicit_opts[0] && !add_option(opts, n, explicit_opts, NULL))
        return tool_error("run: options too long"), -1;
    return 0;
}

struct run_args {
    char opts[OPTS_MAX]; /* explicit options: inherited, then flags */
    const char *out;     /* --out DIR */
    int prog;            /* index of PROGRAM in argv */
};

/* Returns 0, or an exit status after an error line. */
static int parse_run(int argc, char **argv, struct run_args *a)
{
    static const char *const simple[][2] = {
        {"--log", "log_path"}, {"--json", "json_path"}, {"--exitcode", "exitcode"}};
    const char *inherited = getenv("ULOCKDEP_OPTIONS");
    snprintf(a->opts, sizeof(a->opts), "%s", inherited ? inherited : "");
    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i], *key = NULL;
        char abs[PATH_MAX];
        int ok = 1;
        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        if (arg[0] != '-')
            break;
        for (int k = 0; k < 3; k++)
            if (!strcmp(arg, simple[k][0]))
                key = simple[k][1];
        if (key && i + 1 < argc) {
            ok = add_option(a->opts, sizeof(a->opts), key, argv[++i]);
        } else if (!strcmp(arg, "-o") && i + 1 < argc) {
            ok = add_option(a->opts, sizeof(a->opts), argv[++i], NULL);
        } else if (!strcmp(arg, "--out") && i + 1 < argc) {
            a->out = argv[++i];
        } else if (!strcmp(arg, "--suppressions") && i + 1 < argc) {
            if (option_path("--suppressions", argv[++i], abs) < 0)
                return 2;
            ok = add_option(a->opts, sizeof(a->opts), "suppressions", abs);
        } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            return help_command("run", stdout), -1;
        } else {
            tool_error("run: unknown option '%s'", arg);
            return help_command("run", stderr), 2;
        }
        if (!ok)
            return tool_error("run: options too long"), 2;
    }
    a->prog = i;
    if (i >= argc)
        return tool_error("run: no program given"), help_command("run", stderr), 2;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    struct run_args a = {.out = NULL};
    int rc = parse_run(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    char opts[OPTS_MAX];
    if (a.out) {
        if (out_options(a.out, a.opts, opts, sizeof(opts)) < 0)
            return 2;
    } else {
        snprintf(opts, sizeof(opts), "%s", a.opts);
    }
    char lib[PATH_MAX];
    if (!find_library(lib, sizeof(lib))) {
        tool_error("cannot find libulockdep.so (set ULOCKDEP_LIB)");
        return 2;
    }
    char preload[PATH_MAX * 2];
    const char *old = getenv("LD_PRELOAD");
    snprintf(preload, sizeof(preload), "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
    setenv("LD_PRELOAD", preload, 1);
    if (opts[0])
        setenv("ULOCKDEP_OPTIONS", opts, 1);
    execvp(argv[a.prog], argv + a.prog);
    tool_error("cannot run %s: %s", argv[a.prog], strerror(errno));
    return 127;
}

int cmd_options(void)
{
    char lib[PATH_MAX];
    if (!find_library(lib, sizeof(lib))) {
        tool_error("cannot find libulockdep.so (set ULOCKDEP_LIB)");
        return 2;
    }
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    void (*print)(int) = h ? (void (*)(int))dlsym(h, "uld_print_options") : NULL;
    if (!print) {
        tool_error("%s: %s", lib, dlerror());
        return 2;
    }
    printf("ULOCKDEP_OPTIONS=key=value:key=value...\n\n  %-18s %-10s %s\n", "option", "default",
           "meaning");
    fflush(stdout);
    print(1);
    return 0;
}
