/*
 * robust_dlclose_deleted.c - like robust_dlclose_report.c, but the
 * library's file is deleted before it is unloaded, so when the report is
 * written nothing can name the library's code: its frames must say so
 * ("module unloaded") rather than be named after whatever is mapped there
 * now, and the report must still come out.
 *
 * A copy of librobust_dl.so (robust/robust_dl.c) is dlopen'ed from the
 * scratch directory; lib_new_lock() creates a heap mutex there (class: that
 * init site in the library) and lib_with_lock() takes it and calls back
 * into the program, which takes prog_lock: heap lock -> prog_lock.  The
 * copy is unlinked and dlclose'd; then the program holds prog_lock and
 * locks the heap mutex: prog_lock -> heap lock, a cycle.  One report; the
 * heap lock's class is named by module and offset (its code cannot be
 * read any more), and the library's frames read "module unloaded".
 *
 * EXPECT: lock-order-inversion librobust_dl_copy.so+0x*#1 prog_lock
 * EXPECT-STDERR: \?\? \(\S*librobust_dl_copy\.so\+0x[0-9a-f]+, module unloaded\)
 */
#include "progs.h"

#include <dlfcn.h>
#include <fcntl.h>
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

/* <binary's dir>/robust/librobust_dl.so copied to ./librobust_dl_copy.so */
static void copy_library(char *copy, size_t n)
{
    char path[PATH_MAX], buf[1 << 16];
    ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 64);
    CHECK(len > 0);
    path[len] = '\0';
    strcpy(strrchr(path, '/'), "/robust/librobust_dl.so");
    CHECK(getcwd(copy, n - 32) != NULL);
    strcat(copy, "/librobust_dl_copy.so");
    int in = open(path, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0700);
    CHECK(in >= 0 && out >= 0);
    while ((len = read(in, buf, sizeof(buf))) > 0)
        CHECK(write(out, buf, (size_t)len) == len);
    CHECK(len == 0);
    close(in);
    close(out);
}

int main(void)
{
    char copy[PATH_MAX];
    copy_library(copy, sizeof(copy));
    void *h = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
    CHECK(h != NULL);
    pthread_mutex_t *(*lib_new_lock)(void);
    int (*lib_with_lock)(pthread_mutex_t *, void (*)(void *), void *);
    *(void **)&lib_new_lock = dlsym(h, "lib_new_lock");
    *(void **)&lib_with_lock = dlsym(h, "lib_with_lock");
    CHECK(lib_new_lock && lib_with_lock);

    pthread_mutex_t *m = lib_new_lock();
    CHECK(m != NULL);
    OK(lib_with_lock(m, take_prog_lock, (void *)1L)); /* heap lock -> prog_lock */
    CHECK(unlink(copy) == 0);
    OK(dlclose(h));

    run_thread(prog_then_heap, m);
    CHECK(prog_count == 101);
    OK(pthread_mutex_destroy(m));
    free(m);
    return 0;
}
