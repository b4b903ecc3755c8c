/*
 * once_openssl_graph_no_servers.c - the program's first OpenSSL call runs
 * OpenSSL's one-time initialisers nested (a pthread_once inside another);
 * with graph_path set, the nested one's new edge makes the graph dump due
 * inside the outer initialiser.  Writing the dump names classes with libdw,
 * whose debuginfod client starts libcurl, libssh2 and OpenSSL: from inside
 * OpenSSL's own initialiser that waited for itself, and the program hung
 * at its first OpenSSL call (unbound did, at start-up).  Here
 * DEBUGINFOD_URLS is empty: libdw 0.188 makes its client all the same,
 * at the first debug file it does not find (stripped libcrypto).
 * libcrypto is opened with dlopen: the test needs no OpenSSL headers.
 *
 * EXPECT: none
 * EXPECT-GRAPH-EDGE: lock_a lock_b
 * ENV: DEBUGINFOD_URLS=
 * TIMEOUT: 30
 */
#include "progs.h"

#include <dlfcn.h>

#define INIT_LOAD_CRYPTO_STRINGS 0x2ull /* OPENSSL_INIT_LOAD_CRYPTO_STRINGS */

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
    void *crypto = dlopen("libcrypto.so.3", RTLD_NOW);
    if (!crypto) {
        fprintf(stderr, "SKIP: libcrypto.so.3 (OpenSSL 3, Debian package libssl3) is missing: %s\n",
                dlerror());
        return 77;
    }
    int (*init)(unsigned long long, const void *) =
        (int (*)(unsigned long long, const void *))dlsym(crypto, "OPENSSL_init_crypto");
    CHECK(init != NULL);
    CHECK(init(INIT_LOAD_CRYPTO_STRINGS, NULL) == 1);
    OK(pthread_mutex_lock(&lock_a));
    OK(pthread_mutex_lock(&lock_b));
    OK(pthread_mutex_unlock(&lock_b));
    OK(pthread_mutex_unlock(&lock_a));
    return 0;
}
