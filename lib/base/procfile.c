/*
 * procfile.c - each process's own report files.  Every output file names its
 * process and program in its first record (a JSON Lines file: a
 * {"type":"ulockdep-reports"} record; a log file: one line), written by
 * output.c when it creates the file, so tools can tell which processes left
 * which files.  A fork child whose paths hold %p gets files of its own
 * instead of writing into its parent's.
 */
#include "config.h"
#include "output.h"

#include <string.h>
#include <unistd.h>

void uld_procfile_header(int json, int fd)
{
    char exe[512], mem[1024];
    struct uld_buf b;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[len > 0 ? len : 0] = '\0';
    uld_buf_init(&b, mem, sizeof(mem), fd);
    if (json) {
        uld_buf_printf(&b, "{\"type\":\"ulockdep-reports\",\"version\":1,\"pid\":%d,\"program\":",
                       (int)getpid());
        uld_buf_json_str(&b, exe);
        uld_buf_puts(&b, "}\n");
    } else {
        uld_buf_printf(&b, "ulockdep: reports of pid %d (%s)\n", (int)getpid(), exe);
    }
    uld_buf_flush(&b);
}

static void reopen(enum uld_out which, const char *pattern)
{
    char path[ULD_PATH_MAX + 32];
    if (!pattern[0] || !strstr(pattern, "%p"))
        return; /* one file for every process, by the user's choice */
    uld_config_expand_path(pattern, path, sizeof(path));
    if (uld_output_reopen(which, path) < 0)
        uld_warn("cannot use '%s' in the fork child %d", path, (int)getpid());
}

void uld_procfile_after_fork_child(void)
{
    reopen(ULD_OUT_LOG, uld_config.log_path);
    reopen(ULD_OUT_JSON, uld_config.json_path);
}
