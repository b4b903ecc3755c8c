/*
 * robust_dlopen_clean.c - clean twin of robust_dlopen.c: the library
 * (librobust_dl.so, from robust/robust_dl.c) is dlopen'ed, its static locks
 * are taken (lib_table(r) -> lib_lock inside the library, lib_lock ->
 * prog_lock through a callback), and the program never takes lib_lock
 * while holding prog_lock: one order, no cycle.  The library is then
 * dlclose'd, the program locks on in threads, the library is loaded again
 * (its statics start afresh: the counter is 0 again) and used the same
 * consistent way, and unloaded again.
 *
 * Nothing can deadlock, so no report; the unload and reload must neither
 * crash the validator nor make the fresh static locks of the second load
 * inherit anything wrong.  Every value computed is checked.
 *
 * EXPECT: none
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

/* <directory of this binary>/robust/librobust_dl.so, its entry points */
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
    *(void **)&lib_call_locked = dlsym(h, "lib_call_locked");
    *(void **)&lib_bump = dlsym(h, "lib_bump");
    *(void **)&lib_read_counter = dlsym(h, "lib_read_counter");
    CHECK(lib_call_locked && lib_bump && lib_read_counter);
    return h;
}

static void take_prog_lock(void *arg)
{
    OK(pthread_mutex_lock(&prog_lock));
    prog_count += (long)arg;
    OK(pthread_mutex_unlock(&prog_lock));
}

static void *use_lib(void *arg) /* lib_lock -> prog_lock; lib_lock alone */
{
    long base = (long)arg;
    CHECK(lib_call_locked(take_prog_lock, (void *)1L) == base + 1);
    CHECK(lib_bump() == base + 2);
    CHECK(lib_read_counter() == base + 2);
    return arg;
}

static void *prog_only(void *arg) /* prog_lock -> prog_other */
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
    run_thread(use_lib, (void *)0L);
    run_thread(use_lib, (void *)2L);
    OK(dlclose(h));

    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        t[i] = spawn_thread(prog_only, NULL);
    for (int i = 0; i < 3; i++)
        join_thread(t[i]);

    h = load_lib(); /* a fresh copy: its counter starts at 0 again */
    run_thread(use_lib, (void *)0L);
    use_lib((void *)2L);
    OK(dlclose(h));
    run_thread(prog_only, NULL);
    CHECK(prog_count == 4 + 4000);
    return 0;
}
