/*
 * class_wrapper_static_helper_inversion.c - class_wrapper_static_helper_clean.c's
 * true twin: two CPL-style mutexes, created through the same wrapper chain
 * (a wrapper over a static helper) at two use sites, taken in both orders.
 * The chain does not hide them: the inversion is reported, naming both use
 * sites.
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
