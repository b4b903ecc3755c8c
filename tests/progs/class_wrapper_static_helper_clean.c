/*
 * class_wrapper_static_helper_clean.c - GDAL's CPL mutexes (3.6): each is
 * created lazily by CPLMutexHolder -> CPLCreateOrAcquireMutexEx ->
 * CPLCreateMutex -> a static helper that calls pthread_mutex_init, one
 * static handle per use site.  The helper below the wrapper names is part
 * of the wrapper chain, so each use site (CPLGetConfigOption, the file
 * manager) is its own class, and holding one while a pthread_once takes
 * the other is no class cycle.  No report (before: a class-order-inversion
 * warning; tests/real/repro/gdal_cpl_mutex_class.c).
 *
 * EXPECT: none
 */
#include "progs.h"

static __attribute__((noinline)) pthread_mutex_t *cpl_create_mutex_internal(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    pthread_mutex_init(m, NULL);
    return m;
}

__attribute__((noinline)) void *CPLCreateMutex(void) { return cpl_create_mutex_internal(); }

/* CPLCreateOrAcquireMutexEx: create under the master lock, else acquire */
static pthread_mutex_t master = PTHREAD_MUTEX_INITIALIZER;
__attribute__((noinline)) void CPLCreateOrAcquireMutex(void **ph)
{
    pthread_mutex_lock(&master);
    int created = *ph == NULL;
    if (created)
        *ph = CPLCreateMutex();
    pthread_mutex_unlock(&master);
    pthread_mutex_lock(*ph);
}

static void *hConfigMutex, *hFileManagerMutex;
static pthread_once_t cleanup_once = PTHREAD_ONCE_INIT;

static __attribute__((noinline)) const char *CPLGetConfigOption(void)
{
    CPLCreateOrAcquireMutex(&hConfigMutex);
    pthread_mutex_unlock(hConfigMutex);
    return "";
}

static void cleanup_handlers(void) { CPLGetConfigOption(); }

int main(void)
{
    CPLGetConfigOption();
    CPLCreateOrAcquireMutex(&hFileManagerMutex); /* VSIFileManager cleanup */
    pthread_once(&cleanup_once, cleanup_handlers);
    pthread_mutex_unlock(hFileManagerMutex);
    puts("done");
    return 0;
}
