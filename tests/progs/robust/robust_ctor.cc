/*
 * robust_ctor.cc - librobust_ctor.so, linked normally (DT_NEEDED) into
 * tests/progs/robust_static_init*.cc.
 *
 * Its global constructor locks a mutex before main, and before the preload
 * library's own constructor may have run (the dynamic loader initialises a
 * program's libraries before the program, in dependency order, and
 * libulockdep.so has no dependency relation with this library); its
 * global destructor locks it again after main.  The entry points let the
 * program take the library's lock with its own held, both ways round.
 */
#include <cstdio>
#include <cstdlib>
#include <mutex>

std::mutex ctor_lib_mutex; /* not static: its symbol is its plain name */
static int lib_inits, lib_calls;

extern "C" {
int robust_ctor_lib_inits(void);
int robust_ctor_lib_call(void);
int robust_ctor_lib_call_back(void (*cb)(void));
}

namespace {
struct LibState {
    LibState()
    {
        std::lock_guard<std::mutex> g(ctor_lib_mutex);
        lib_inits++;
    }
    ~LibState()
    {
        std::lock_guard<std::mutex> g(ctor_lib_mutex);
        if (lib_inits != 1) { /* checked after main: no one else can */
            std::fputs("robust_ctor: bad state in the destructor\n", stderr);
            std::_Exit(1);
        }
        lib_inits = -1;
    }
};
LibState lib_state;
} // namespace

/* 1 once the constructor ran. */
int robust_ctor_lib_inits(void)
{
    std::lock_guard<std::mutex> g(ctor_lib_mutex);
    return lib_inits;
}

/* ctor_lib_mutex alone; returns the number of calls so far. */
int robust_ctor_lib_call(void)
{
    std::lock_guard<std::mutex> g(ctor_lib_mutex);
    return ++lib_calls;
}

/* ctor_lib_mutex -> whatever cb takes. */
int robust_ctor_lib_call_back(void (*cb)(void))
{
    std::lock_guard<std::mutex> g(ctor_lib_mutex);
    cb();
    return ++lib_calls;
}
