/* REPRO: class-order-inversion
 *
 * ulockdep false positive (a class warning) found on gdal_translate and
 * gdalwarp 3.6 (docs/real-world.md, "GDAL"): every mutex of GDAL's port
 * library is created lazily by CPLMutexHolder -> CPLCreateOrAcquireMutexEx
 * -> CPLCreateMutex -> a static helper that calls pthread_mutex_init, one
 * static `hMutex` pointer per use site (CPLGetConfigOption's hConfigMutex,
 * the VSI file manager's, ...).  The first frame above the init call is the
 * static helper, which matches no built-in wrapper name (and in Debian's
 * libgdal has no symbol at all), so every CPL mutex is one class.  At
 * cleanup, GDAL holds one CPL mutex, runs a pthread_once, and under the
 * once takes another CPL mutex (CPLGetConfigOption): the class cycle
 * CPL -> once -> CPL, although the two mutexes are different objects that
 * never nest the other way.
 *
 * Native: exits 0.  Under ulockdep: one class-order-inversion warning.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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
