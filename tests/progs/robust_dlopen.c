/*
 * robust_dlopen.c - a shared library loaded with dlopen() (librobust_dl.so,
 * built from robust/robust_dl.c) takes its own static lock, lib_lock, and
 * calls back into the program, which takes prog_lock: lib_lock ->
 * prog_lock.  Later the program holds prog_lock and calls into the library,
 * which takes lib_lock: prog_lock -> lib_lock.  Then the library is
 * dlclose'd and the program goes on taking its own locks in threads.
 *
 * Run at the same time, the two paths deadlock (each holds the lock the
 * other wants), so the validator must report the inversion, naming the
 * library's static lock by its symbol like a static lock of the program
 * (lib_lock is a local symbol of the library: its .symtab, not .dynsym).
 * The unload must not disturb the validator: the program's later locking
 * (prog_lock -> prog_other, one order only) is clean, and every value the
 * library and the program compute is checked.
 *
 * EXPECT: lock-order-inversion lib_lock prog_lock
 * EXPECT-STDERR: robust_dl\.c:\d+
 */
#include "progs.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

static pthread_mutex_t prog_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t prog_other = PTHREAD_MUTEX_INITIALIZER;
static long prog_count;

static long (*lib_call_locked)(void (*)(void *), void *);
static long (*lib_bump)(void);
static long (*lib_read_counter)(void);

/* <directory of this binary>/robust/librobust_dl.so */
static void *load_lib(void)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
    CHECK(n > 0);
    path[n] = '\0';
    strcpy(strrchr(path, '/'), "/robust/librobust_dl.so");
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        fprintf(stderr, "dlopen: %s (is add_subdirectory(robust) missing?)\n", dlerror());
    CHECK(h != NULL);
    return h;
}

static void take_prog_lock(void *arg)
{
    OK(pthread_mutex_lock(&prog_lock));
    prog_count += (long)arg;
    OK(pthread_mutex_unlock(&prog_lock));
}

static void *lib_then_prog(void *arg) /* lib_lock -> prog_lock */
{
    CHECK(lib_call_locked(take_prog_lock, (void *)10L) == 1);
    return arg;
}

static void *prog_then_lib(void *arg) /* prog_lock -> lib_lock: closes the cycle */
{
    OK(pthread_mutex_lock(&prog_lock));
    CHECK(lib_bump() == 2);
    prog_count++;
    OK(pthread_mutex_unlock(&prog_lock));
    return arg;
}

static void *after_unload(void *arg) /* prog_lock -> prog_other, always */
{
    for (int i = 0; i < 1000; i++) {
        OK(pthread_mutex_lock(&prog_lock));
        OK(pthread_mutex_lock(&prog_other));
        prog_count++;
        OK(pthread_mutex_unlock(&prog_other));
        OK(pthread_mutex_unlock(&prog_lock));
    }
    return arg;
}

int main(void)
{
    void *h = load_lib();
    *(void **)&lib_call_locked = dlsym(h, "lib_call_locked");
    *(void **)&lib_bump = dlsym(h, "lib_bump");
    *(void **)&lib_read_counter = dlsym(h, "lib_read_counter");
    CHECK(lib_call_locked && lib_bump && lib_read_counter);

    run_thread(lib_then_prog, NULL);
    run_thread(prog_then_lib, NULL);
    CHECK(lib_read_counter() == 2);
    CHECK(prog_count == 11);
    OK(dlclose(h));

    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        t[i] = spawn_thread(after_unload, NULL);
    for (int i = 0; i < 4; i++)
        join_thread(t[i]);
    CHECK(prog_count == 4011);
    return 0;
}
