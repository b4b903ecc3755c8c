/*
 * robust_static_init.cc - locks taken outside main: in C++ global
 * constructors (the program's, and those of librobust_ctor.so, a library
 * linked normally, built from robust/robust_ctor.cc, whose constructor the
 * loader runs before the program's and before the preload library's own:
 * LD_DEBUG=files shows the order; the validator then starts from that
 * first lock), a lock acquired in a constructor and released in main, and
 * after main in an atexit handler, a C++ static destructor and a
 * __attribute__((destructor)) function.
 *
 * The program always nests registry_mutex -> entry_mutex, registry_mutex ->
 * ctor_lib_mutex and fini_lock -> ctor_lib_mutex, never the other way:
 * nothing can deadlock, and every lock is released by the thread that took
 * it (handoff_lock: taken in a constructor and released in main, both on
 * the main thread).  No report.  Each stage checks the one before it and
 * leaves a line on stderr, so a validator that breaks start-up or exit
 * (a hang, a crash, stages skipped) fails the EXPECT-STDERR lines.  Order
 * at exit: atexit handlers registered in main, then C++ static destructors,
 * then destructor functions (run by the dynamic loader's _dl_fini).
 *
 * EXPECT: none
 * EXPECT-STDERR: ^robust_static_init: main ok$
 * EXPECT-STDERR: ^robust_static_init: atexit handler ok$
 * EXPECT-STDERR: ^robust_static_init: static destructor ok$
 * EXPECT-STDERR: ^robust_static_init: destructor function ok$
 */
#include "progs.h"

#include <mutex>
#include <unistd.h>

extern "C" { /* librobust_ctor.so; weak, so a missing library fails a CHECK, not the build */
int robust_ctor_lib_inits(void) __attribute__((weak));
int robust_ctor_lib_call(void) __attribute__((weak));
}

std::mutex registry_mutex;
std::mutex entry_mutex;
pthread_mutex_t handoff_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t fini_lock = PTHREAD_MUTEX_INITIALIZER;
static int stage, lib_inits_seen, lib_calls;

static void stage_done(int from, const char *what)
{
    if (stage != from) { /* after main CHECK's exit() would recurse: _exit instead */
        fprintf(stderr, "robust_static_init: %s: stage %d, expected %d\n", what, stage, from);
        _exit(1);
    }
    stage = from + 1;
    fprintf(stderr, "robust_static_init: %s ok\n", what);
}

struct Registry {
    Registry()
    {
        std::lock_guard<std::mutex> a(registry_mutex);
        std::lock_guard<std::mutex> b(entry_mutex);
        if (robust_ctor_lib_inits) { /* the library was initialised first */
            lib_inits_seen = robust_ctor_lib_inits();
            lib_calls = robust_ctor_lib_call(); /* registry_mutex -> ctor_lib_mutex */
        }
        stage = 1;
    }
    ~Registry()
    {
        std::lock_guard<std::mutex> a(registry_mutex);
        std::lock_guard<std::mutex> b(entry_mutex);
        stage_done(3, "static destructor");
    }
};
Registry registry;

__attribute__((constructor)) static void take_handoff(void)
{
    OK(pthread_mutex_lock(&handoff_lock)); /* released in main */
}

static void at_exit(void)
{
    std::lock_guard<std::mutex> a(registry_mutex);
    std::lock_guard<std::mutex> b(entry_mutex);
    stage_done(2, "atexit handler");
}

__attribute__((destructor)) static void fini(void)
{
    OK(pthread_mutex_lock(&fini_lock));
    if (robust_ctor_lib_call() != lib_calls + 2) /* fini_lock -> ctor_lib_mutex */
        _exit(1);
    OK(pthread_mutex_unlock(&fini_lock));
    stage_done(4, "destructor function");
}

int main(void)
{
    if (!robust_ctor_lib_inits)
        fprintf(stderr, "librobust_ctor.so not linked (is add_subdirectory(robust) missing?)\n");
    CHECK(robust_ctor_lib_inits != NULL);
    CHECK(stage == 1 && lib_inits_seen == 1 && lib_calls == 1);
    OK(pthread_mutex_unlock(&handoff_lock)); /* held since before main */
    CHECK_RC(pthread_mutex_trylock(&handoff_lock), 0);
    OK(pthread_mutex_unlock(&handoff_lock));
    {
        std::lock_guard<std::mutex> a(registry_mutex);
        CHECK(robust_ctor_lib_call() == lib_calls + 1);
    }
    OK(atexit(at_exit));
    fprintf(stderr, "robust_static_init: main ok\n");
    stage = 2;
    return 0;
}
