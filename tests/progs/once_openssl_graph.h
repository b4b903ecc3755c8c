/*
 * once_openssl_graph.h - the program of once_openssl_graph_*.c, whose
 * environments differ (one program per expectation).
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
