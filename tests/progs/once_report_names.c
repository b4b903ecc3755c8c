/*
 * once_report_names.c - a report made inside a one-time initialiser names
 * its locks.  There libdw must not make its debuginfod client (it starts
 * libcurl and OpenSSL through their own pthread_once, which may be the one
 * this thread is running: once_openssl_graph_*), so debug files come from
 * the local build-id tree only; before, such a report had no names at all
 * (a C++ function-local static's initialiser in node was one).  The
 * initialiser also checks that libcurl was not started inside it.
 *
 * EXPECT: lock-order-inversion lock_a lock_b
 * ENV: DEBUGINFOD_URLS=http://127.0.0.1:9/
 */
#include "progs.h"

#include <dlfcn.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static int loaded(const char *soname)
{
    void *so = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (so)
        dlclose(so);
    return so != NULL;
}

static void setup(void)
{
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_lock(&lock_a)); /* the report, written here */
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_mutex_unlock(&lock_b));
    CHECK(!loaded("libdebuginfod.so.1"));
    CHECK(!loaded("libcurl-gnutls.so.4"));
}

int main(void)
{
    void *probe = dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD);
    CHECK(probe == NULL); /* nothing has loaded it yet */
    if (access("/usr/lib/x86_64-linux-gnu/libdebuginfod.so.1", F_OK) != 0 &&
        access("/lib/x86_64-linux-gnu/libdebuginfod.so.1", F_OK) != 0)
        fprintf(stderr, "note: libdebuginfod1 is not installed: the check that the "
                        "initialiser started no libcurl cannot fail here\n");
    OK(pthread_mutex_lock(&lock_a)); /* outside: the once does not serialise this order */
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    OK(pthread_once(&setup_once, setup));
    return 0;
}
