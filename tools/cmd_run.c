/*
 * cmd_run.c - `ulockdep run` and `ulockdep options`.
 *
 * `run` prepares the environment (LD_PRELOAD, ULOCKDEP_OPTIONS) and runs
 * the program in a child, so children and exec'd programs stay
 * instrumented.  With --out DIR every process writes its own report, log
 * and graph files into DIR (the library expands %p to the pid).  An option
 * set explicitly (in the inherited ULOCKDEP_OPTIONS, or with --log, --json,
 * -o) wins over the --out default for the same key.  Paths are passed with
 * ':' and '\\' escaped.
 *
 * The verdict: a test driver that forks a child per case and counts only
 * status 1 as a failure turns a child's 66 into a pass.  So every process
 * appends its pid to an error file (error_file=) at its first error, and
 * `run` exits with the program's status, or with exitcode (66) when the
 * program succeeded but some process under it reported an error.  Test
 * drivers themselves (skip=, default ctest, make, ninja) record nothing.
 * Single-threaded.
 */
#include "commands.h"
#include "util.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OPTS_MAX 8192
#define DEFAULT_SKIP "ctest,make,ninja"
#define DEFAULT_EXITCODE 66
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

/* A path as an option value: ':' and '\\' escaped with '\\'.  0 if too long. */
static int escape_path(const char *path, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = path; *p; p++) {
        if (k + 3 > n)
            return 0;
        if (*p == ':' || *p == '\\')
            out[k++] = '\\';
        out[k++] = *p;
    }
    out[k] = '\0';
    return 1;
}

/* The same, appended as key=escaped(path). */
static int add_path_option(char *opts, size_t n, const char *key, const char *path)
{
    char esc[PATH_MAX * 2 + 64];
    return escape_path(path, esc, sizeof(esc)) && add_option(opts, n, key, esc);
}

/* Length of the option item at p: up to the next ':' not escaped by '\\'. */
static size_t item_len(const char *p)
{
    size_t i = 0;
    for (; p[i] && p[i] != ':'; i++)
        if (p[i] == '\\' && p[i + 1])
            i++;
    return i;
}

/* Is `key` set in a ':'-separated option string? */
static int has_key(const char *opts, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = opts; *p;) {
        size_t len = item_len(p);
        size_t klen = strcspn(p, "=:");
        if (klen == k && !strncmp(p, key, k))
            return 1;
        p += len + (p[len] == ':');
    }
    return 0;
}

/* The value of the last `key=` item, copied unescaped into out; 0 if none. */
static int option_value(const char *opts, const char *key, char *out, size_t n)
{
    size_t k = strlen(key);
    int found = 0;
    for (const char *p = opts; *p;) {
        size_t len = item_len(p);
        if (len > k && p[k] == '=' && !strncmp(p, key, k)) {
            size_t o = 0;
            for (size_t i = k + 1; i < len && o + 1 < n; i++) {
                if (p[i] == '\\' && i + 1 < len)
                    i++;
                out[o++] = p[i];
            }
            out[o] = '\0';
            found = 1;
        }
        p += len + (p[len] == ':');
    }
    return found;
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
    if (strlen(abs) >= LIB_PATH_MAX) {
        tool_error("run: %s %s: path too long for the library (%d bytes at most)", what, abs,
                   LIB_PATH_MAX - 1);
        return -1;
    }
    return 0;
}

/* The --out directory as an absolute path, without creating it; -1 after an error line. */
static int out_dir_path(const char *dir, char *abs, size_t n)
{
    char cwd[PATH_MAX];
    if (dir[0] != '/' && !getcwd(cwd, sizeof(cwd)))
        return tool_error("run: --out %s: %s", dir, strerror(errno)), -1;
    int w = dir[0] == '/' ? snprintf(abs, n, "%s", dir) : snprintf(abs, n, "%s/%s", cwd, dir);
    /* the longest file name the library builds there: the escaped path, a pid, a suffix */
    char esc[PATH_MAX * 2 + 64];
    if (w < 0 || (size_t)w >= n || !escape_path(abs, esc, sizeof(esc)) ||
        strlen(esc) + sizeof("/ulockdep.4194304.jsonl") > LIB_PATH_MAX) {
        tool_error("run: --out %s: path too long for the library (%d bytes at most); nothing "
                   "created", dir, LIB_PATH_MAX - 1);
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
    if (out_dir_path(dir, abs, sizeof(abs)) < 0)
        return -1; /* checked before anything is created */
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
        add_path_option(opts, n, keys[i][0], value);
    }
    if (!has_key(explicit_opts, "stderr_lines"))
        add_option(opts, n, "stderr_lines", "1"); /* a failing test's log says why */
    if (explicit_opts[0] && !add_option(opts, n, explicit_opts, NULL))
        return tool_error("run: options too long"), -1;
    return 0;
}

struct run_args {
    char opts[OPTS_MAX]; /* explicit options: inherited, then flags */
    char skip[1024];     /* --skip names, comma-separated; empty: the default */
    const char *out;     /* --out DIR */
    int prog;            /* index of PROGRAM in argv */
};

/* --skip NAME: a program name without directories, no ':' or ','. */
static int add_skip(struct run_args *a, const char *name)
{
    size_t len = strlen(a->skip);
    if (!*name || strpbrk(name, ":,/\\"))
        return tool_error("run: --skip %s: a program name (no '/', ':', ',')", name), 0;
    if (len + strlen(name) + 2 > sizeof(a->skip))
        return tool_error("run: too many --skip names"), 0;
    snprintf(a->skip + len, sizeof(a->skip) - len, "%s%s", len ? "," : "", name);
    return 1;
}

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
            ++i;
            ok = strcmp(key, "exitcode") ? add_path_option(a->opts, sizeof(a->opts), key, argv[i])
                                         : add_option(a->opts, sizeof(a->opts), key, argv[i]);
        } else if (!strcmp(arg, "--skip") && i + 1 < argc) {
            if (!add_skip(a, argv[++i]))
                return 2;
        } else if (!strcmp(arg, "-o") && i + 1 < argc) {
            ok = add_option(a->opts, sizeof(a->opts), argv[++i], NULL);
        } else if (!strcmp(arg, "--out") && i + 1 < argc) {
            a->out = argv[++i];
        } else if (!strcmp(arg, "--suppressions") && i + 1 < argc) {
            if (option_path("--suppressions", argv[++i], abs) < 0)
                return 2;
            ok = add_path_option(a->opts, sizeof(a->opts), "suppressions", abs);
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

/* An empty file every process under run may append its pid to (error_file=). */
static int make_error_file(char *path, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, n, "%s/ulockdep-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    fchmod(fd, 0622); /* children that drop privileges can still say so; only we read it */
    close(fd);
    return 0;
}

/* How many pids the error file holds. */
static int count_error_pids(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (!f)
        return 0;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static pid_t child_pid;

static void forward_signal(int sig)
{
    if (child_pid > 0)
        kill(child_pid, sig);
}

/* Run the program in a child; its wait status. */
static int run_child(char **argv, const char *preload, const char *opts)
{
    child_pid = fork();
    if (child_pid < 0) {
        tool_error("run: fork: %s", strerror(errno));
        return -1;
    }
    if (child_pid == 0) {
        setenv("LD_PRELOAD", preload, 1);
        if (opts[0])
            setenv("ULOCKDEP_OPTIONS", opts, 1);
        execvp(argv[0], argv);
        tool_error("cannot run %s: %s", argv[0], strerror(errno));
        _exit(127);
    }
    /* the terminal's signals reach the child itself; others are passed on */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGTERM, forward_signal);
    signal(SIGHUP, forward_signal);
    int status;
    while (waitpid(child_pid, &status, 0) < 0)
        if (errno != EINTR)
            return tool_error("run: waitpid: %s", strerror(errno)), -1;
    return status;
}

/* End like the program did: its exit status, or the signal that killed it. */
static int pass_on(int status)
{
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
        return 128 + sig;
    }
    return WEXITSTATUS(status);
}

int cmd_run(int argc, char **argv)
{
    struct run_args a = {.out = NULL};
    int rc = parse_run(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    char opts[OPTS_MAX], errfile[PATH_MAX] = "";
    if (a.out) {
        if (out_options(a.out, a.opts, opts, sizeof(opts)) < 0)
            return 2;
    } else {
        snprintf(opts, sizeof(opts), "%s", a.opts);
    }
    if (!has_key(opts, "skip") && !add_option(opts, sizeof(opts), "skip",
                                              a.skip[0] ? a.skip : DEFAULT_SKIP))
        return tool_error("run: options too long"), 2;
    if (!has_key(opts, "error_file") && make_error_file(errfile, sizeof(errfile)) == 0 &&
        !add_path_option(opts, sizeof(opts), "error_file", errfile))
        return unlink(errfile), tool_error("run: options too long"), 2;
    char lib[PATH_MAX];
    if (!find_library(lib, sizeof(lib))) {
        tool_error("cannot find libulockdep.so (set ULOCKDEP_LIB)");
        return 2;
    }
    char preload[PATH_MAX * 2];
    const char *old = getenv("LD_PRELOAD");
    snprintf(preload, sizeof(preload), "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
    int status = run_child(argv + a.prog, preload, opts);
    int errors = errfile[0] ? count_error_pids(errfile) : 0;
    if (errfile[0])
        unlink(errfile);
    if (status < 0)
        return 2;
    char value[32];
    int exitcode = option_value(opts, "exitcode", value, sizeof(value)) ? atoi(value)
                                                                        : DEFAULT_EXITCODE;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && errors > 0 && exitcode != 0) {
        tool_error("run: %d process%s reported errors; exit status %d", errors,
                   errors == 1 ? "" : "es", exitcode);
        return exitcode;
    }
    return pass_on(status);
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
