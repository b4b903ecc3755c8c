/*
 * dwload.c - libdw.so.1 (and through it libelf.so.1) loaded at the first
 * symbolisation, RTLD_LOCAL so its symbols never bind the program's, and its
 * functions resolved into one table (dwload.h).  If it cannot be loaded,
 * frames are module+offset and one line says so.  Runs with the report lock
 * held and uld_busy set, so locks taken by libdw's and its dependencies'
 * initialisers pass straight through and never enter the host's graphs.
 */
#define ULD_DWLOAD_IMPL
#include "symbolize.h"
#include "dwload.h"

#include "model/stack.h"

#include <dlfcn.h>

struct uld_dw uld_dw;

static int state;  /* 0: not tried, 1: loaded, -1: failed for good */
static int forbidden;

void uld_dw_forbid_load(int forbid)
{
    forbidden = forbid;
}

static const char *const names[] = {
#define ULD_DW_NAME(name) #name,
    ULD_DW_FUNCTIONS(ULD_DW_NAME)
#undef ULD_DW_NAME
};

int uld_dw_load(void)
{
    if (state)
        return state > 0;
    /* A program's signal handler prints a report only when its thread is
     * about to hang on a lock: loading there risks no more than that hang
     * (the loader's lock held by the code it interrupted), and the report
     * names its locks.  The kill-time report must let the process end. */
    if (forbidden) {
        ULD_WARN_ONCE(1, "libdw is not loaded while a fatal signal is handled and no earlier "
                         "report loaded it: frames of this report are shown as module+offset");
        return 0;
    }
    void *so = dlopen("libdw.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!so) {
        state = -1;
        uld_warn("cannot load libdw.so.1 (%s); stack frames are shown as module+offset",
                 dlerror());
        return 0;
    }
    void **slot = (void **)&uld_dw;
    for (size_t i = 0; i < ULD_ARRAY_SIZE(names); i++) {
        if (!(slot[i] = dlsym(so, names[i]))) {
            state = -1;
            uld_warn("libdw.so.1 has no %s; stack frames are shown as module+offset",
                     names[i]);
            return 0; /* left loaded: it may have started threads of its own */
        }
    }
    state = 1;
    return 1;
}
