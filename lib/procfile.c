/*
 * procfile.c - each process's own report files.  Every output file names its
 * process and program in its first record, even when it gets no report (a
 * JSON Lines file: a {"type":"ulockdep-reports"} record; a log file: one
 * line), so tools can tell which processes ran and which left no graph.  A
 * fork child whose paths hold %p opens files of its own instead of writing
 * into its parent's.  Called at start-up and in the fork child, before any
 * other thread of ours runs.
 */
#include "config.h"
#include "core.h"
#include "output.h"

#include <string.h>
#include <unistd.h>

static void program_path(char *exe, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", exe, n - 1);
    exe[len > 0 ? len : 0] = '\0';
}

static void announce(int json, int log)
{
    char exe[512], mem[1024];
    struct uld_buf b;
    program_path(exe, sizeof(exe));
    int fd = json && uld_config.json_path[0] ? uld_output_fd(ULD_OUT_JSON) : -1;
    if (fd >= 0) {
        uld_buf_init(&b, mem, sizeof(mem), fd);
        uld_buf_printf(&b, "{\"type\":\"ulockdep-reports\",\"version\":1,\"pid\":%d,\"program\":",
                       (int)getpid());
        uld_buf_json_str(&b, exe);
        uld_buf_puts(&b, "}\n");
        uld_buf_flush(&b);
    }
    fd = log && uld_config.log_path[0] ? uld_output_fd(ULD_OUT_LOG) : -1;
    if (fd >= 0 && fd != uld_output_fd(ULD_OUT_STDERR)) { /* a log file, not stderr */
        uld_buf_init(&b, mem, sizeof(mem), fd);
        uld_buf_printf(&b, "ulockdep: reports of pid %d (%s)\n", (int)getpid(), exe);
        uld_buf_flush(&b);
    }
}

void uld_procfile_announce(void)
{
    announce(1, 1);
}

/* 1 if the output was given its own file. */
static int reopen(enum uld_out which, const char *pattern)
{
    char path[ULD_PATH_MAX + 32];
    if (!pattern[0] || !strstr(pattern, "%p"))
        return 0; /* one file for every process, by the user's choice */
    uld_config_expand_path(pattern, path, sizeof(path));
    if (uld_output_reopen(which, path) < 0) {
        uld_warn("cannot open '%s' in the fork child %d", path, (int)getpid());
        return 0;
    }
    return 1;
}

void uld_procfile_after_fork_child(void)
{
    int log = reopen(ULD_OUT_LOG, uld_config.log_path);
    int json = reopen(ULD_OUT_JSON, uld_config.json_path);
    announce(json, log);
}
