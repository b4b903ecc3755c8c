/*
 * robust_static_init_inversion.cc - a lock-order inversion whose first
 * edge is recorded before main and whose second is recorded after main
 * has returned.
 *
 * A global constructor of the program holds prog_mutex and calls into
 * librobust_ctor.so (robust/robust_ctor.cc, linked normally), which takes
 * ctor_lib_mutex: prog_mutex -> ctor_lib_mutex, before main.  A
 * __attribute__((destructor)) function, run by the dynamic loader after
 * main returned and after the atexit handlers, calls into the library,
 * which holds ctor_lib_mutex and calls back into the program, which takes
 * prog_mutex: ctor_lib_mutex -> prog_mutex.  Had the two paths run
 * concurrently they would deadlock, so the validator must report the
 * cycle, although it closes during process exit, and the exit status must
 * still say an error was reported (66); the destructor function must still
 * run to its end (its stderr line).
 *
 * EXPECT: lock-order-inversion ctor_lib_mutex prog_mutex
 * EXPECT-STDERR: ^robust_static_init_inversion: destructor function ok$
 */
#include "progs.h"

#include <unistd.h>

extern "C" { /* librobust_ctor.so; weak, so a missing library fails a CHECK, not the build */
int robust_ctor_lib_call(void) __attribute__((weak));
int robust_ctor_lib_call_back(void (*cb)(void)) __attribute__((weak));
}

pthread_mutex_t prog_mutex = PTHREAD_MUTEX_INITIALIZER;
static int calls_before_main, callbacks;

struct Early {
    Early()
    {
        if (!robust_ctor_lib_call)
            return; /* main reports it */
        OK(pthread_mutex_lock(&prog_mutex));
        calls_before_main = robust_ctor_lib_call(); /* prog_mutex -> ctor_lib_mutex */
        OK(pthread_mutex_unlock(&prog_mutex));
    }
};
Early early;

static void take_prog_mutex(void)
{
    OK(pthread_mutex_lock(&prog_mutex));
    callbacks++;
    OK(pthread_mutex_unlock(&prog_mutex));
}

__attribute__((destructor)) static void fini(void)
{
    /* ctor_lib_mutex -> prog_mutex: closes the cycle */
    if (!robust_ctor_lib_call_back || robust_ctor_lib_call_back(take_prog_mutex) != 2 || callbacks != 1)
        _exit(1);
    fprintf(stderr, "robust_static_init_inversion: destructor function ok\n");
}

int main(void)
{
    if (!robust_ctor_lib_call)
        fprintf(stderr, "librobust_ctor.so not linked (is add_subdirectory(robust) missing?)\n");
    CHECK(robust_ctor_lib_call != NULL && robust_ctor_lib_call_back != NULL);
    CHECK(calls_before_main == 1);
    return 0;
}
