/*
 * robust_dlclose_report.c - a lock-order cycle whose first edge was
 * recorded inside a dlopen'ed library is closed after that library has
 * been dlclose'd, so the report has to describe code that is no longer
 * mapped.
 *
 * librobust_dl.so (robust/robust_dl.c) creates a heap mutex with
 * pthread_mutex_init in lib_new_lock() (its class is that call site,
 * `lib_new_lock:<line>`, so it is `lib_new_lock:<line>#1`), and
 * lib_with_lock() takes it and calls back into the program, which takes
 * prog_lock: heap lock -> prog_lock, recorded with a stack inside the
 * library.  The mutex lives on the heap and outlives the library.  After
 * dlclose, the program holds prog_lock and locks the heap mutex itself:
 * prog_lock -> heap lock.  Had the two paths run concurrently they would
 * deadlock: one report, naming both locks as it would have while the
 * library was loaded (the name was fixed when the lock was created).  The
 * validator must not crash or hang printing stack frames of an unmapped
 * library.  The counts are checked.
 *
 * EXPECT: lock-order-inversion lib_new_lock:*#1 prog_lock
 */
#include "progs.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

static pthread_mutex_t prog_lock = PTHREAD_MUTEX_INITIALIZER;
static long prog_count;

static void take_prog_lock(void *arg)
{
    OK(pthread_mutex_lock(&prog_lock));
    prog_count += (long)arg;
    OK(pthread_mutex_unlock(&prog_lock));
}

static void *prog_then_heap(void *m) /* prog_lock -> heap lock: closes the cycle */
{
    OK(pthread_mutex_lock(&prog_lock));
    OK(pthread_mutex_lock(m));
    prog_count += 100;
    OK(pthread_mutex_unlock(m));
    OK(pthread_mutex_unlock(&prog_lock));
    return NULL;
}

int main(void)
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

    pthread_mutex_t *(*lib_new_lock)(void);
    int (*lib_with_lock)(pthread_mutex_t *, void (*)(void *), void *);
    *(void **)&lib_new_lock = dlsym(h, "lib_new_lock");
    *(void **)&lib_with_lock = dlsym(h, "lib_with_lock");
    CHECK(lib_new_lock && lib_with_lock);

    pthread_mutex_t *m = lib_new_lock();
    CHECK(m != NULL);
    OK(lib_with_lock(m, take_prog_lock, (void *)1L)); /* heap lock -> prog_lock */
    OK(dlclose(h));

    run_thread(prog_then_heap, m);
    CHECK(prog_count == 101);
    OK(pthread_mutex_destroy(m));
    free(m);
    return 0;
}
