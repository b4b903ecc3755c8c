/*
 * libtailcall_mutex.so - GDAL 3.6's CPLCreateMutex (port/cpl_multiproc.cpp)
 * for stripped_lib_tailcall_*: built -O2 and stripped (.dynsym only, as
 * Debian's libgdal), so the exported create_mutex() *tail-calls* a static
 * helper (a `jmp`: no frame of it is left) that calls another static
 * helper that initialises the mutex.  The init stack is two frames no
 * symbol names, then create_mutex's caller: warp_chunk_new() here (as
 * GDALWarpOperation::ChunkAndWarpMulti in libgdal), or a program.
 */
#include <pthread.h>
#include <stdlib.h>

static __attribute__((noinline)) int init_recursive(pthread_mutex_t *m)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    int rc = pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
    return rc;
}

static __attribute__((noinline)) void *mutex_new(int kind)
{
    pthread_mutex_t *m = malloc(sizeof(*m) + (size_t)kind);
    if (m && init_recursive(m) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

void *create_mutex(void)
{
    return mutex_new(0); /* a tail call at -O2 */
}

struct warp_chunk { void *mutex; int done; };

struct warp_chunk *warp_chunk_new(void)
{
    struct warp_chunk *c = calloc(1, sizeof(*c));
    if (c)
        c->mutex = create_mutex();
    return c;
}
