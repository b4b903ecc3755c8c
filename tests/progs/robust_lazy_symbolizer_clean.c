/*
 * robust_lazy_symbolizer_clean.c - a program that reports nothing never
 * has the symboliser's libraries in its address space.
 *
 * libdw is loaded at the first report, not at start-up: linked in, it and
 * libelf, libz, libbz2, liblzma were mapped into every host process, and
 * with DEBUGINFOD_URLS set libdw's constructor also loaded libdebuginfod,
 * libcurl, its TLS and SSH libraries (whose init-time locks then entered
 * the host's graphs).  Here DEBUGINFOD_URLS names a closed port, the
 * program takes its locks in one order (no report), and at the end it reads
 * its own /proc/self/maps: none of libdw, libelf, libdebuginfod, libcurl.
 *
 * ENV: DEBUGINFOD_URLS=http://127.0.0.1:9
 * EXPECT: none
 */
#include "robust_lazy_symbolizer.h"

static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static long count;

static void *nest(void *arg)
{
    OK(pthread_mutex_lock(&outer));
    OK(pthread_mutex_lock(&inner));
    count++;
    OK(pthread_mutex_unlock(&inner));
    OK(pthread_mutex_unlock(&outer));
    return arg;
}

int main(void)
{
    run_thread(nest, NULL);
    nest(NULL);
    CHECK(count == 2);
    CHECK(mapped_libraries(symbolizer_libs, 6) == 0);
    return 0;
}
