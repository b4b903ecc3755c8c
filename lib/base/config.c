/*
 * config.c - the options table: one row per option with its default, its
 * bounds and its help text; parsed once at initialisation.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct uld_config uld_config ULD_HIDDEN;

enum opt_type { OPT_BOOL, OPT_INT, OPT_PATH, OPT_LIST };

struct option_row {
    const char *name;
    enum opt_type type;
    size_t offset;
    long def, min, max; /* integer options */
    const char *help;
};

#define OFF(f) offsetof(struct uld_config, f)

static const struct option_row options[] = {
    {"log_path", OPT_PATH, OFF(log_path), 0, 0, 0,
     "file for human-readable reports (%p: pid); default stderr"},
    {"json_path", OPT_PATH, OFF(json_path), 0, 0, 0,
     "file for one JSON object per report (%p: pid)"},
    {"graph_path", OPT_PATH, OFF(graph_path), 0, 0, 0,
     "file for the lock-class graph, created at start, edges appended as recorded, for "
     "`ulockdep graph/merge` (%p: pid)"},
    {"suppressions", OPT_PATH, OFF(suppressions), 0, 0, 0,
     "file of KIND:PATTERN lines; matching reports are not printed or counted"},
    {"skip", OPT_PATH, OFF(skip), 0, 0, 0,
     "comma-separated program names (ctest,make) whose processes record nothing; "
     "their children are checked"},
    {"error_file", OPT_PATH, OFF(error_file), 0, 0, 0,
     "existing file to which a process appends its pid at its first error report "
     "(`ulockdep run` uses it to fail the job)"},
    {"exitcode", OPT_INT, OFF(exitcode), 66, 0, 255,
     "exit status when an error was reported; 0 keeps the program's"},
    {"verbosity", OPT_INT, OFF(verbosity), 1, 0, 2,
     "0: one line per report, 1: full reports, 2: also internal notes"},
    {"symbolize", OPT_BOOL, OFF(symbolize), 1, 0, 1,
     "resolve function, file and line in stack traces"},
    {"debug_dir", OPT_PATH, OFF(debug_dir), 0, 0, 0,
     "also look for separate debug files here: DIR/.build-id/xx/yyyy.debug and "
     "DIR/<binary's dir>/<debuglink>, before /usr/lib/debug"},
    {"symbolize_timeout", OPT_INT, OFF(symbolize_timeout), 5, 0, 600,
     "seconds a report waits for debuginfod (DEBUGINFOD_URLS) per module; 0: never ask"},
    {"max_frames", OPT_INT, OFF(max_frames), 24, 1, ULD_MAX_FRAMES,
     "frames recorded per stack trace"},
    {"class_warnings", OPT_BOOL, OFF(class_warnings), 1, 0, 1,
     "report cycles among lock classes that no instance cycle explains"},
    {"halt_on_error", OPT_BOOL, OFF(halt_on_error), 0, 0, 1,
     "abort() after the first error report (for a core dump)"},
    {"summary", OPT_BOOL, OFF(summary), 1, 0, 1,
     "print a one-line summary at exit when anything was reported"},
    {"max_edges", OPT_INT, OFF(max_edges), 1L << 21, 16, 1L << 26,
     "dependency edges kept (both graphs) before new ones are dropped"},
    {"max_locks", OPT_INT, OFF(max_locks), 1L << 24, 16, 1L << 28,
     "live lock instances tracked before new locks go unchecked"},
    {"max_tombstones", OPT_INT, OFF(max_tombstones), 1L << 20, 16, 1L << 26,
     "destroyed mutexes, rwlocks and spinlocks remembered (until re-initialised or freed) "
     "to report their use after destroy"},
    {"max_classes", OPT_INT, OFF(max_classes), 1L << 17, 16, 1L << 24,
     "lock classes before new classes go unchecked"},
    {"chain_cache_bits", OPT_INT, OFF(chain_cache_bits), 20, 10, 26,
     "log2 of the validated-chain cache size"},
    {"watchdog", OPT_INT, OFF(watchdog), 0, 0, 86400,
     "report threads blocked on each other in a cycle for this many seconds; 0: off"},
    {"watchdog_abort", OPT_BOOL, OFF(watchdog_abort), 0, 0, 1,
     "abort() after a deadlock-detected report, to leave a core"},
    {"lock_tags", OPT_BOOL, OFF(lock_tags), 1, 0, 1,
     "keep each mutex/rwlock's identity in a word glibc leaves unused, so a lock built again "
     "at a reused address (stack, no destroy) is known to be new"},
    {"wrappers", OPT_LIST, OFF(wrappers), 0, 0, 0,
     "globs (':'-separated) naming lock wrapper functions: their frames are skipped when a "
     "lock's class, name and report location are chosen (wrappers=nni_mtx_*:nni_plat_*)"},
    {"builtin_wrappers", OPT_BOOL, OFF(builtin_wrappers), 1, 0, 1,
     "also skip functions whose names say they wrap the lock API (*mutex_init*, "
     "*mtx_lock*, *lock_alloc*, C++ *Mutex constructors...; docs/design.md)"},
    {"kill_report", OPT_BOOL, OFF(kill_report), 1, 0, 1,
     "when SIGTERM, SIGINT, SIGQUIT, SIGALRM, SIGHUP, SIGUSR1, SIGUSR2 or abort()'s SIGABRT "
     "ends the process (no handler of the program's), first report every thread blocked on a "
     "lock or wait, and the locks the ending thread holds"},
    {"follow_links", OPT_BOOL, OFF(follow_links), 0, 0, 1,
     "write log_path/json_path/graph_path through a symbolic link (default: refuse one, "
     "as a link in a shared directory may point anywhere)"},
    {"stderr_lines", OPT_BOOL, OFF(stderr_lines), 0, 0, 1,
     "with log_path set, also print each report's one-line summary on stderr "
     "(`ulockdep run --out` sets it, so a failing test's log says why)"},
    {"stats", OPT_BOOL, OFF(stats), 0, 0, 1,
     "print statistics at exit: locks, classes, edges, chain-cache hit rate, cycle searches, "
     "slow path"},
};

static void set_defaults(void)
{
    memset(&uld_config, 0, sizeof(uld_config));
    for (size_t i = 0; i < ULD_ARRAY_SIZE(options); i++)
        if (options[i].type != OPT_PATH && options[i].type != OPT_LIST)
            *(long *)((char *)&uld_config + options[i].offset) = options[i].def;
}

static int parse_long(const char *s, size_t n, long *out)
{
    char tmp[32];
    char *end;
    if (n == 0 || n >= sizeof(tmp))
        return 0;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    long v = strtol(tmp, &end, 0);
    if (*end != '\0')
        return 0;
    *out = v;
    return 1;
}

static int parse_bool(const char *s, size_t n, long *out)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strlen(yes[i]) == n && !strncmp(s, yes[i], n))
            return *out = 1, 1;
        if (strlen(no[i]) == n && !strncmp(s, no[i], n))
            return *out = 0, 1;
    }
    return 0;
}

static const struct option_row *find_option(const char *key, size_t n)
{
    for (size_t i = 0; i < ULD_ARRAY_SIZE(options); i++)
        if (strlen(options[i].name) == n && !strncmp(options[i].name, key, n))
            return &options[i];
    return NULL;
}

/* `wrappers=a:b`: the option separator also separates the globs. */
static int list_append(char *list, const char *item, size_t len)
{
    size_t used = strlen(list);
    if (used + 1 + len >= ULD_PATH_MAX) {
        uld_warn("ULOCKDEP_OPTIONS: list option longer than %d bytes; '%.*s' ignored",
                 ULD_PATH_MAX - 1, (int)len, item);
        return 1;
    }
    list[used] = ':';
    memcpy(list + used + 1, item, len);
    list[used + 1 + len] = '\0';
    return 0;
}

static int apply_one(const char *item, size_t len, char **list)
{
    *list = NULL;
    const char *eq = memchr(item, '=', len);
    size_t klen = eq ? (size_t)(eq - item) : len;
    const struct option_row *o = find_option(item, klen);
    if (!o) {
        uld_warn("ULOCKDEP_OPTIONS: unknown option '%.*s' ignored (see `ulockdep options`)",
                 (int)klen, item);
        return 1;
    }
    const char *val = eq ? eq + 1 : "1";
    size_t vlen = eq ? len - klen - 1 : 1;
    char *field = (char *)&uld_config + o->offset;
    long v;
    if (o->type == OPT_LIST)
        *list = field;
    switch (o->type) {
    case OPT_LIST:
        if (vlen >= ULD_PATH_MAX) {
            uld_warn("ULOCKDEP_OPTIONS: %s is longer than %d bytes; ignored", o->name,
                     ULD_PATH_MAX - 1);
            return 1;
        }
        memcpy(field, val, vlen);
        field[vlen] = '\0';
        return 0;
    case OPT_PATH: {
        size_t n = 0;
        for (size_t i = 0; i < vlen && n < ULD_PATH_MAX; i++, n++) {
            if (val[i] == '\\' && i + 1 < vlen && (val[i + 1] == ':' || val[i + 1] == '\\'))
                i++; /* an escaped ':' or '\\' */
            if (n < ULD_PATH_MAX - 1)
                field[n] = val[i];
        }
        if (n >= ULD_PATH_MAX) {
            field[0] = '\0';
            uld_warn("ULOCKDEP_OPTIONS: %s is longer than %d bytes; ignored", o->name,
                     ULD_PATH_MAX - 1);
            return 1;
        }
        field[n] = '\0';
        return 0;
    }
    case OPT_BOOL:
        if (!parse_bool(val, vlen, &v)) {
            uld_warn("ULOCKDEP_OPTIONS: %s=%.*s: expected 0 or 1; keeping %ld", o->name,
                     (int)vlen, val, *(long *)field);
            return 1;
        }
        *(long *)field = v;
        return 0;
    case OPT_INT:
        if (!parse_long(val, vlen, &v) || v < o->min || v > o->max) {
            uld_warn("ULOCKDEP_OPTIONS: %s=%.*s: expected an integer in %ld..%ld; keeping "
                     "the default %ld",
                     o->name, (int)vlen, val, o->min, o->max, o->def);
            return 1;
        }
        *(long *)field = v;
        return 0;
    }
    return 1;
}

/* The next ':' that is not escaped ("\\:"), or NULL. */
static const char *next_separator(const char *p)
{
    for (; *p; p++) {
        if (p[0] == '\\' && p[1])
            p++;
        else if (*p == ':')
            return p;
    }
    return NULL;
}

int uld_config_parse(const char *opts)
{
    int errors = 0;
    set_defaults();
    if (!opts)
        return 0;
    const char *p = opts;
    char *list = NULL; /* the list option being read: later items without '=' extend it */
    while (*p) {
        const char *end = next_separator(p);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0 && list && !memchr(p, '=', len) && !find_option(p, len))
            errors += list_append(list, p, len);
        else if (len > 0)
            errors += apply_one(p, len, &list);
        if (!end)
            break;
        p = end + 1;
    }
    return errors;
}

int uld_config_skips_program(const char *name)
{
    size_t n = strlen(name);
    for (const char *p = uld_config.skip; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && n > 0 && !strncmp(p, name, n))
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

void uld_config_expand_path(const char *in, char *out, size_t n)
{
    struct uld_buf b;
    uld_buf_init(&b, out, n, -1);
    for (const char *p = in; *p; p++) {
        if (p[0] == '%' && p[1] == 'p') {
            uld_buf_printf(&b, "%d", (int)getpid());
            p++;
        } else {
            uld_buf_putc(&b, *p);
        }
    }
    uld_buf_cstr(&b);
}

/* For `ulockdep options`: the table as text. */
ULD_EXPORT void uld_print_options(int fd)
{
    char mem[4096];
    struct uld_buf b;
    uld_buf_init(&b, mem, sizeof(mem), fd);
    for (size_t i = 0; i < ULD_ARRAY_SIZE(options); i++) {
        const struct option_row *o = &options[i];
        if (o->type == OPT_PATH || o->type == OPT_LIST)
            uld_buf_printf(&b, "  %-18s %-10s %s\n", o->name, "\"\"", o->help);
        else
            uld_buf_printf(&b, "  %-18s %-10ld %s\n", o->name, o->def, o->help);
    }
    uld_buf_flush(&b);
}
