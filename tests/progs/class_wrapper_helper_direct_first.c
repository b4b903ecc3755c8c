/*
 * class_wrapper_helper_direct_first.c - class_wrapper_static_helper_inversion.c
 * with the static helper also called directly, before the wrapper is ever
 * used.  That first lock's class is the helper's own init call; the class
 * of a lock made later through the wrapper must still be the site above
 * the wrapper, not what a cache of "this init call is its own class"
 * remembered from the direct call.  Same report as the twin.
 *
 * EXPECT: lock-order-inversion config_option* file_manager*
 */
#include "progs.h"

static __attribute__((noinline)) pthread_mutex_t *cpl_create_mutex_internal(void)
{
    pthread_mutex_t *m = malloc(sizeof(*m));
    CHECK(m != NULL);
    OK(pthread_mutex_init(m, NULL));
    return m;
}

__attribute__((noinline)) void *CPLCreateMutex(void) { return cpl_create_mutex_internal(); }

static pthread_mutex_t master = PTHREAD_MUTEX_INITIALIZER;
__attribute__((noinline)) void CPLCreateOrAcquireMutex(void **ph)
{
    OK(pthread_mutex_lock(&master));
    if (*ph == NULL)
        *ph = CPLCreateMutex();
    OK(pthread_mutex_unlock(&master));
    OK(pthread_mutex_lock(*ph));
}

static void *hConfig, *hFiles;

static __attribute__((noinline)) void config_option(void) { CPLCreateOrAcquireMutex(&hConfig); }
static __attribute__((noinline)) void file_manager(void) { CPLCreateOrAcquireMutex(&hFiles); }

int main(void)
{
    pthread_mutex_t *direct = cpl_create_mutex_internal(); /* no wrapper above */
    OK(pthread_mutex_lock(direct));
    OK(pthread_mutex_unlock(direct));
    config_option();
    file_manager();
    OK(pthread_mutex_unlock(hFiles));
    OK(pthread_mutex_unlock(hConfig));
    file_manager();
    config_option();
    OK(pthread_mutex_unlock(hConfig));
    OK(pthread_mutex_unlock(hFiles));
    printf("done\n");
    return 0;
}
