/*
 * stripped_lib_tailcall_clean.c - gdalwarp -multi 3.6 in small: mutexes
 * made by a stripped library's create_mutex(), which tail-calls symbol-less
 * helpers (stripped/tailcall_mutex.c, libtailcall_mutex.so, -O2, no
 * .symtab).  A warp chunk's mutex (made by the library's warp_chunk_new)
 * and a block cache's mutex (create_mutex called by the program) are each
 * held while a dataset's read/write lock is taken; that lock is held while
 * the dataset's own mutex (create_mutex called from another place of the
 * program) is taken: chunk -> rw -> dataset, cache -> rw -> dataset, no
 * cycle.  Keyed by the init site alone, the three mutexes are one class
 * (the helper's call of pthread_mutex_init) and C -> rw -> C is a class
 * cycle; keyed through the unnamed helpers up to the first caller with a
 * name or in another module they are three classes, named by those callers.
 *
 * EXPECT: none
 */
#include "progs.h"

void *create_mutex(void);
struct warp_chunk { void *mutex; int done; };
struct warp_chunk *warp_chunk_new(void);

static pthread_mutex_t rw_mutex = PTHREAD_MUTEX_INITIALIZER; /* EnterReadWrite */

static __attribute__((noinline)) void *dataset_open(void)
{
    void *m = create_mutex();
    CHECK(m != NULL);
    return m;
}

static __attribute__((noinline)) void *block_cache_new(void)
{
    void *m = create_mutex();
    CHECK(m != NULL);
    return m;
}

int main(void)
{
    struct warp_chunk *c = warp_chunk_new();
    CHECK(c != NULL && c->mutex != NULL);
    void *ds = dataset_open(), *blk = block_cache_new();
    OK(pthread_mutex_lock(blk)); /* the block cache, then the dataset's rw lock */
    OK(pthread_mutex_lock(&rw_mutex));
    OK(pthread_mutex_unlock(&rw_mutex));
    OK(pthread_mutex_unlock(blk));
    OK(pthread_mutex_lock(c->mutex)); /* ChunkAndWarpMulti */
    OK(pthread_mutex_lock(&rw_mutex));
    OK(pthread_mutex_unlock(&rw_mutex));
    OK(pthread_mutex_unlock(c->mutex));
    OK(pthread_mutex_lock(&rw_mutex)); /* EnterReadWrite, then the dataset's */
    OK(pthread_mutex_lock(ds));
    OK(pthread_mutex_unlock(ds));
    OK(pthread_mutex_unlock(&rw_mutex));
    return 0;
}
